// Moved to lib/ so that the assistant answers with the same links (issue 17).
export { locationText, resultTarget, searchPagePath } from '../../../lib/search-links';
