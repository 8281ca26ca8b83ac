/** Worker-thread entry for `isolated.ts`: run one request, post the result, exit. */
import { parentPort, workerData } from 'node:worker_threads';
import { type IsolatedRequest, runInProcess } from './isolated.js';

const result = await runInProcess(workerData as IsolatedRequest);
parentPort?.postMessage(result);
