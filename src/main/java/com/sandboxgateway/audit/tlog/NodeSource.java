package com.sandboxgateway.audit.tlog;

/** Reads complete subtrees of a log: the node at {@code level} (0 = leaves) and {@code index} within it. */
@FunctionalInterface
public interface NodeSource {

    byte[] node(int level, long index);
}
