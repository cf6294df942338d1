package com.sandboxgateway.audit;

/**
 * The outcome of checking the chain.
 *
 * @param intact whether every link holds
 * @param checked records checked
 * @param firstBrokenSeq the first record whose link does not hold, or {@code null}
 * @param problem what is wrong with it, or {@code null}
 */
public record ChainVerification(boolean intact, long checked, Long firstBrokenSeq, String problem) {

    static ChainVerification ok(long checked) {
        return new ChainVerification(true, checked, null, null);
    }

    static ChainVerification broken(long checked, long seq, String problem) {
        return new ChainVerification(false, checked, seq, problem);
    }
}
