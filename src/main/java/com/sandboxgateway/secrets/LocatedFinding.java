package com.sandboxgateway.secrets;

/**
 * A finding and where in the request it was: {@code input[0].content[1]}, {@code instructions},
 * {@code file line 1042 column notes}. Never the value.
 */
public record LocatedFinding(String ruleId, Finding.Kind kind, String location) {
}
