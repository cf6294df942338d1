package com.sandboxgateway.secrets;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

import org.springframework.context.ApplicationEventPublisher;

import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestStep;
import com.sandboxgateway.policy.input.InputPlaces;


/**
 * Scans every text a request tells the model and the sandbox: each text place the request walk found
 * (instructions, prompts, replayed assistant and tool messages, tool outputs, tool descriptions,
 * metadata, conversation items, and the {@code domain_secrets} values of a tool's container or of a
 * container created directly). Credentials block or are redacted; personal data in free text is
 * handled by the PII policy.
 */
public final class PromptGuard implements RequestStep {

    private final Supplier<TextGuard> guards;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    /** @param guards a fresh guard per request (it collects that request's findings) */
    public PromptGuard(Supplier<TextGuard> guards, ApplicationEventPublisher events, Clock clock) {
        this.guards = guards;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public Decision apply(Exchange exchange) {
        List<InputPlaces.Text> texts = exchange.inputs().texts();
        if (texts.isEmpty()) {
            return Decision.PROCEED;
        }
        TextGuard guard = guards.get();
        for (InputPlaces.Text text : texts) {
            String value = text.value();
            switch (guard.scan(value, text::path, text.personalData())) {
                case TextGuard.Guarded.Passed(CharSequence passed) when passed != value -> {
                    text.replace(passed.toString());
                    exchange.jsonEdited();
                }
                case TextGuard.Guarded.Passed unchanged -> { }
                case TextGuard.Guarded.Blocked(Decision.Reject refusal) -> {
                    events.publishEvent(new SensitiveDataFound(exchange.requestId(), exchange.principal(), guard.findings(),
                            "blocked", clock.instant()));
                    return refusal.at(text.path());
                }
            }
        }
        if (!guard.findings().isEmpty()) {
            events.publishEvent(new SensitiveDataFound(exchange.requestId(), exchange.principal(), guard.findings(),
                    guard.handling(), clock.instant()));
        }
        return Decision.PROCEED;
    }
}
