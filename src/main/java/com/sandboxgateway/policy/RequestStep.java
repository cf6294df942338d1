package com.sandboxgateway.policy;

/**
 * One policy check or rewrite applied to a request before it goes upstream. Steps run in the order
 * {@link PolicyChain} declares; the first {@link Decision.Reject} stops the request.
 */
@FunctionalInterface
public interface RequestStep {

    Decision apply(Exchange exchange);
}
