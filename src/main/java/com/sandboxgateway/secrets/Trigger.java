package com.sandboxgateway.secrets;

/**
 * What a text must have before a rule is worth running: a minimum length, a minimum number of digits,
 * a run of at least {@code minRun} token characters (a vendor token is one such run), every character
 * kind in {@code allOf} and at least one in {@code anyOf} (kinds are {@link TextTraits} flags;
 * {@code 0} means no condition).
 */
record Trigger(int minLength, int minDigits, int minRun, int allOf, int anyOf) {

    /** Runs are only measured up to {@link TextTraits#LONGEST_RUN_MEASURED}, so no trigger may ask for more. */
    Trigger {
        minRun = Math.min(minRun, TextTraits.LONGEST_RUN_MEASURED);
    }

    /** For a token of at least {@code length} characters drawn from the token characters. */
    static Trigger token(int length, int allOf) {
        return new Trigger(length, 0, length, allOf, 0);
    }

    static Trigger atLeast(int minLength, int allOf) {
        return new Trigger(minLength, 0, 0, allOf, 0);
    }

    /** The conditions on counts; a rule runs when these and {@link #admitsKinds} hold. */
    boolean admitsCounts(int length, int digits, int longestRun) {
        return length >= minLength && digits >= minDigits && longestRun >= minRun;
    }

    /** The conditions on character kinds; the scanner settles them once per combination of kinds, not per text. */
    boolean admitsKinds(int flags) {
        return (flags & allOf) == allOf && (anyOf == 0 || (flags & anyOf) != 0);
    }
}
