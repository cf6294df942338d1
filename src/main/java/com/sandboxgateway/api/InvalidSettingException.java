package com.sandboxgateway.api;

/**
 * A setting that stops the start: it names the configuration key, the value found (never a secret's value:
 * {@code null} then) and what to change, so the startup report can say all three without a stack trace.
 */
public class InvalidSettingException extends IllegalStateException {

    private final String key;
    private final String value;
    private final String problem;
    private final String action;

    /**
     * @param key the property, e.g. {@code gateway.policy.teams.finance.network.allowed-domains}
     * @param value what the property holds, or {@code null} when it is a secret or unset
     * @param problem what is wrong with it
     * @param action what the operator should do
     */
    public InvalidSettingException(String key, String value, String problem, String action) {
        super(key + (value == null ? "" : " = '" + value + "'") + ": " + problem);
        this.key = key;
        this.value = value;
        this.problem = problem;
        this.action = action;
    }

    public String key() {
        return key;
    }

    /** The offending value, or {@code null} when it must not be shown. */
    public String value() {
        return value;
    }

    public String problem() {
        return problem;
    }

    public String action() {
        return action;
    }
}
