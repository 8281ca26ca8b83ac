/**
 * Open runs in order of their last event, oldest first: an intrusive doubly-linked list, so
 * moving a run to the newest end, removing one and finding the oldest are O(1). (A Map's
 * insertion order would do the same on paper, but V8 leaves a hole per deleted entry and its
 * iterator scans them from the start, which made closing the oldest of 200,000 runs O(n).)
 */
export interface RecencyNode {
  older: RecencyNode | undefined;
  newer: RecencyNode | undefined;
}

export class RecencyList<T extends RecencyNode> {
  private oldestNode: T | undefined;
  private newestNode: T | undefined;

  get oldest(): T | undefined {
    return this.oldestNode;
  }

  /** Appends `node` (not in the list) as the newest. */
  push(node: T): void {
    node.older = this.newestNode;
    node.newer = undefined;
    if (this.newestNode) this.newestNode.newer = node;
    else this.oldestNode = node;
    this.newestNode = node;
  }

  remove(node: T): void {
    if (node.older) node.older.newer = node.newer;
    else this.oldestNode = node.newer as T | undefined;
    if (node.newer) node.newer.older = node.older;
    else this.newestNode = node.older as T | undefined;
    node.older = node.newer = undefined;
  }

  /** Marks `node` (in the list) as the most recently active. */
  touch(node: T): void {
    if (node === this.newestNode) return;
    this.remove(node);
    this.push(node);
  }
}
