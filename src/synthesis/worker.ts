/**
 * Worker-thread entry for `isolated.ts`: answers requests one after another for as long as the
 * checker keeps it. It starts loading the solver (and the front ends the batch needs) at once, so
 * that work overlaps the main thread's start-up instead of following the first request.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { heapUsedMb, type IsolatedRequest, runInProcess, type WorkerAnswer, type WorkerSetup } from './isolated.js';

const setup = workerData as WorkerSetup;
const FRONT_ENDS = { tsl: () => import('../tsl/index.js'), tlsf: () => import('../tlsf/index.js'), ltl: () => import('../frontend/game-from-ltl.js') };
// Failures here are not lost: the request's own import of the same module reports them.
void Promise.all([import('./index.js'), import('../frontend/load.js'), ...setup.frontEnds.map((f) => FRONT_ENDS[f]())]).catch(() => undefined);

parentPort?.on('message', (request: IsolatedRequest) => {
  void runInProcess(request).then((result) => {
    const answer: WorkerAnswer = { result, heapMb: heapUsedMb() };
    parentPort?.postMessage(answer);
  });
});
