package com.sandboxgateway.review;

/**
 * A rule file that cannot be used: not YAML, a missing or unknown key, a pattern that does not compile,
 * a duplicate id. The message names the file, the rule and the problem, so an operator can fix the file
 * from the message alone; it is thrown at load time, never while scanning.
 */
public final class InvalidRulesException extends IllegalArgumentException {

    private final String source;

    InvalidRulesException(String source, String problem) {
        super(source + ": " + problem);
        this.source = source;
    }

    InvalidRulesException(String source, String problem, Throwable cause) {
        super(source + ": " + problem, cause);
        this.source = source;
    }

    /** The file the rules came from, e.g. {@code classpath:review/code-rules.yml} or a path. */
    public String source() {
        return source;
    }
}
