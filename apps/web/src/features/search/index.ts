// The search feature's public face: the box the file screens show, and the search page (a route).
export { SearchBox } from './components/search-box';
