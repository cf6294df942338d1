package com.sandboxgateway.support;

import java.time.Clock;
import java.util.List;

import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.review.InjectionDetector;
import com.sandboxgateway.review.InjectionRules;
import com.sandboxgateway.sanitize.FileSanitizer;
import com.sandboxgateway.sanitize.InjectionScreening;
import com.sandboxgateway.sanitize.Pseudonymizer;
import com.sandboxgateway.secrets.SecretScanner;
import com.sandboxgateway.secrets.TextGuard;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import tools.jackson.databind.json.JsonMapper;

/** The file rules of a policy, wired as {@code PipelineConfiguration} wires them, for plain unit tests of the steps that use them. */
public final class FileSanitizers {

    private FileSanitizers() {
    }

    /** The rules of {@code policy}; what they publish (findings, sanitizations) lands in {@code events}. */
    public static FileSanitizer of(PolicyProperties policy, List<Object> events) {
        PolicyProperties.Org org = policy.org();
        Pseudonymizer pseudonymizer = Pseudonymizer.fromPolicy(org.sanitization(), org.pii().action() == PolicyProperties.PiiAction.PSEUDONYMIZE);
        SecretScanner scanner = SecretScanner.standard();
        InjectionScreening injection = new InjectionScreening(InjectionDetector.fromRules(InjectionRules.standard()),
                org.injection().action(), new SimpleMeterRegistry());
        return new FileSanitizer(policy, pseudonymizer, () -> new TextGuard(scanner, org.secrets().action(), org.pii().action(),
                pseudonymizer == null ? null : pseudonymizer::pseudonym), scanner, JsonMapper.builder().build(), injection, events::add,
                Clock.systemUTC());
    }
}
