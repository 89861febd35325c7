export { type Connector, connector } from './connector';
export * from './protocol';
export { sendToWorker } from './send';
