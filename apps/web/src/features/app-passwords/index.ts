/** App passwords (docs/PRODUCT.md#app-passwords): the profile's section, composed by the app layer. */
export { AppPasswordsSection } from './components/app-passwords-section';
