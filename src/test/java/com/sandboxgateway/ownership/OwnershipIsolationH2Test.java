package com.sandboxgateway.ownership;

/** Ownership isolation on the embedded default store (H2). */
class OwnershipIsolationH2Test extends OwnershipIsolationContract {
}
