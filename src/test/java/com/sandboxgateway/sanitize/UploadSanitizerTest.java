package com.sandboxgateway.sanitize;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static com.sandboxgateway.support.Exchanges.END;
import static com.sandboxgateway.support.Exchanges.part;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayHeaders;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.support.FileSanitizers;
import com.sandboxgateway.support.PlantedSecrets;
import com.sandboxgateway.support.Policies;

class UploadSanitizerTest {

    @TempDir
    Path spool;

    private final List<Object> events = new ArrayList<>();
    private final UploadSanitizer step = new UploadSanitizer(FileSanitizers.of(Policies.of("org.sanitization.drop-columns=email",
            "org.sanitization.profiles.sales.required-columns=region"), events));

    @Test
    void shouldSpoolTheRewrittenFileAndSayWhatWasDone() throws IOException {
        Exchange exchange = upload("region,email,revenue\r\nnorth,a@example.com,10\r\n", null);

        assertThat(step.apply(exchange)).isEqualTo(Decision.PROCEED);
        String sent = new String(((RequestBody.Multipart) exchange.body()).upload().body().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(sent).contains("region,revenue").contains("north,10").doesNotContain("a@example.com");
        assertThat(exchange.responseHeaders()).containsKey(GatewayHeaders.SANITIZED);
        assertThat(events).hasAtLeastOneElementOfType(UploadSanitized.class);
    }

    @Test
    void shouldRefuseAFileHoldingACredentialNamingTheFormField() {
        Exchange exchange = upload("region,token\r\nnorth," + PlantedSecrets.githubToken() + "\r\n", null);

        assertRefused(step.apply(exchange), ErrorCode.SECRET_DETECTED, "file", "");
        assertThat(exchange.responseHeaders()).doesNotContainKey(GatewayHeaders.SANITIZED);
    }

    @Test
    void shouldRefuseAFileMissingItsProfilesColumnsAndAProfileThePolicyLacks() {
        assertRefused(step.apply(upload("city,revenue\r\nparis,10\r\n", "sales")), ErrorCode.MISSING_REQUIRED_COLUMNS, "file", "region");
        assertRefused(step.apply(upload("region\r\nnorth\r\n", "marketing")), ErrorCode.INVALID_REQUEST, null, "'marketing'");
    }

    private Exchange upload(String csv, String profile) {
        return Exchanges.multipart(Route.FILES_UPLOAD, part("purpose", null, "user_data") + part("file", "sales.csv", csv) + END,
                profile, spool);
    }
}
