package com.sandboxgateway.policy.input;

import java.time.Clock;
import java.util.List;

import org.springframework.context.ApplicationEventPublisher;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.policy.RequestStep;

/**
 * Refuses a request holding an input item, content part or tool type the gateway does not govern
 * ({@code unsupported_input}, naming its JSON path and type), since nothing in it would be checked.
 * With {@code gateway.policy.org.unknown-input: allow} the request goes on and the audit records what
 * passed ungoverned.
 */
public final class UnsupportedInputs implements RequestStep {

    private final PolicyProperties.UnknownInput handling;
    private final ApplicationEventPublisher events;
    private final Clock clock;

    public UnsupportedInputs(PolicyProperties.UnknownInput handling, ApplicationEventPublisher events, Clock clock) {
        this.handling = handling;
        this.events = events;
        this.clock = clock;
    }

    @Override
    public Decision apply(Exchange exchange) {
        List<InputPlaces.Unsupported> unsupported = exchange.inputs().unsupported();
        if (unsupported.isEmpty()) {
            return Decision.PROCEED;
        }
        if (handling == PolicyProperties.UnknownInput.ALLOW) {
            events.publishEvent(new UngovernedInputForwarded(exchange.requestId(), exchange.principal(), unsupported,
                    clock.instant()));
            return Decision.PROCEED;
        }
        InputPlaces.Unsupported first = unsupported.getFirst();
        return Decision.reject(ErrorCode.UNSUPPORTED_INPUT, first.path() + ": the " + first.union() + " type '" + first.type()
                + "' is not one the gateway governs, so it cannot be sent. Send the content in a governed form (message "
                + "text, input_text, input_file, function_call_output), or ask the platform team to set "
                + "gateway.policy.org.unknown-input: allow.", first.path());
    }
}
