export * from './protocol';
export { sendToWorker } from './send';
