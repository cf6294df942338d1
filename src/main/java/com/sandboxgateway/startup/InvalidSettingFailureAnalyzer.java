package com.sandboxgateway.startup;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import com.sandboxgateway.api.InvalidSettingException;

/** Turns an {@link InvalidSettingException} into Spring Boot's "APPLICATION FAILED TO START" block. */
class InvalidSettingFailureAnalyzer extends AbstractFailureAnalyzer<InvalidSettingException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidSettingException cause) {
        String setting = cause.key() + (cause.value() == null ? "" : " = '" + cause.value() + "'");
        return new FailureAnalysis("The gateway cannot start with the setting " + setting + ": " + cause.problem() + ".",
                cause.action(), cause);
    }
}
