package com.sandboxgateway.audit;

import java.util.ArrayList;
import java.util.List;

import com.sandboxgateway.audit.tlog.TreeFrontier;

import tools.jackson.databind.json.JsonMapper;

/** Roots recomputed from the stored records' content, independently of the tree the store keeps. */
final class MerkleRoots {

    private static final AuditChain CHAIN = new AuditChain(JsonMapper.builder().build());

    private MerkleRoots() {
    }

    /** The root over the first {@code size} records, each hashed from its canonical JSON. */
    static byte[] of(AuditStore store, long size) {
        List<StoredRecord> records = new ArrayList<>();
        store.forEach(new AuditQuery(null, null, null, null, null, null, null, null, null, 1000), records::add);
        TreeFrontier frontier = TreeFrontier.empty();
        records.stream().limit(size).forEach(r -> frontier.append(CHAIN.hashes(r.prevHash(), r.seq(), r.record()).leafHash(),
                (level, index, hash) -> { }));
        return frontier.root();
    }
}
