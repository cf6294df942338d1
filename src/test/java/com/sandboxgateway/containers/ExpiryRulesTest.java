package com.sandboxgateway.containers;

import static com.sandboxgateway.support.Exchanges.END;
import static com.sandboxgateway.support.Exchanges.part;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.multipart.MultipartUpload;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.config.PolicyProperties;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.config.TeamPolicies;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.Policies;

class ExpiryRulesTest {

    private static final PolicyProperties POLICY = Policies.of("org.files.default-expiry=2h", "org.files.max-expiry=1d",
            "org.containers.max-idle-minutes=20");

    @TempDir
    Path spool;

    private final ExpiryRules rules = new ExpiryRules(POLICY, new TeamPolicies(POLICY));

    @Test
    void shouldGiveAContainerWithoutExpiryTheTeamsIdleLimit() {
        Exchange exchange = Exchanges.json(Route.CONTAINERS_CREATE, "{\"name\":\"c\"}");

        assertThat(rules.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isTrue();
        assertThat(exchange.json().path("expires_after").path("anchor").asString()).isEqualTo("last_active_at");
        assertThat(exchange.json().path("expires_after").path("minutes").asInt()).isEqualTo(20);
    }

    @Test
    void shouldLeaveAShorterContainerExpiryAsSent() {
        Exchange exchange = Exchanges.json(Route.CONTAINERS_CREATE, "{\"expires_after\":{\"anchor\":\"last_active_at\",\"minutes\":5}}");

        assertThat(rules.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isFalse();
    }

    @Test
    void shouldGiveAnUploadTheDefaultExpiryAndCutALongerOne() throws IOException {
        assertThat(uploaded(part("purpose", null, "user_data") + part("file", "a.txt", "hello") + END))
                .contains("expires_after[seconds]\"\r\n\r\n7200\r\n").contains("expires_after[anchor]\"\r\n\r\ncreated_at\r\n");
        assertThat(uploaded(part("expires_after[seconds]", null, "2592000") + part("file", "a.txt", "hello") + END))
                .contains("expires_after[seconds]\"\r\n\r\n86400\r\n");
    }

    @Test
    void shouldRefuseAnExpiryThatIsNotANumberAsTheUploadIsRead() {
        Exchange exchange = Exchanges.multipart(Route.FILES_UPLOAD, part("expires_after[seconds]", null, "soon") + END, null, spool);

        assertThat(rules.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThatThrownBy(() -> upload(exchange).prepare((headers, content, out) -> content.transferTo(out)))
                .isInstanceOfSatisfying(GatewayException.class, refused -> {
                    assertThat(refused.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
                    assertThat(refused.param()).isEqualTo("expires_after[seconds]");
                });
    }

    /** The upload as it would go upstream once the step set its rules. */
    private String uploaded(String body) throws IOException {
        Exchange exchange = Exchanges.multipart(Route.FILES_UPLOAD, body, null, spool);
        assertThat(rules.apply(exchange)).isEqualTo(Decision.PROCEED);
        try (MultipartUpload upload = upload(exchange)) {
            upload.prepare((headers, content, out) -> content.transferTo(out));
            return new String(upload.body().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static MultipartUpload upload(Exchange exchange) {
        return ((RequestBody.Multipart) exchange.body()).upload();
    }
}
