// Shared by every file list (files and spaces features): lives in lib/.
export { useWideScreen } from '../../../lib/use-wide-screen';
