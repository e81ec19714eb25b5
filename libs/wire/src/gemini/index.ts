export { geminiAdapter } from './gemini-adapter';
