package com.sandboxgateway.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.policy.Decision;

/** Assertions on what a step decided. */
public final class Decisions {

    private Decisions() {
    }

    /** Asserts a refusal with the code, the field at fault and a message that mentions {@code mention}. */
    public static Decision.Reject assertRefused(Decision decision, ErrorCode code, String param, String mention) {
        assertThat(decision).isInstanceOf(Decision.Reject.class);
        Decision.Reject reject = (Decision.Reject) decision;
        assertThat(reject.code()).as(reject.message()).isEqualTo(code);
        assertThat(reject.param()).as(reject.message()).isEqualTo(param);
        assertThat(reject.message()).contains(mention);
        return reject;
    }
}
