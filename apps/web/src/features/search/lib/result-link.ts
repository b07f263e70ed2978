// Moved to lib/ so that the assistant answers with the same links (docs/PRODUCT.md#assistant-file-commands).
export { locationText, resultTarget, searchPagePath } from '../../../lib/search-links';
