/** The assistant feature's public surface for the app layer (layouts). */
export { FloatingAssistant } from './components/floating-assistant';
