package com.sandboxgateway.ownership;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static com.sandboxgateway.support.Exchanges.ALICE;
import static com.sandboxgateway.support.Exchanges.END;
import static com.sandboxgateway.support.Exchanges.part;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.auth.Principal;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.RequestBody;
import com.sandboxgateway.support.Exchanges;

class OwnershipCheckTest {

    private static final Principal BOB = new Principal("bob", "finance", Set.of("user"));

    @TempDir
    Path spool;

    private final Owners owners = Owners.none().owning(ALICE, "file_alice", ObjectKind.FILE).owning(BOB, "file_bob", ObjectKind.FILE)
            .owning(ALICE, "id_1", ObjectKind.CONTAINER);
    private final OwnershipCheck check = new OwnershipCheck(owners.ownership());

    @Test
    void shouldLetARequestNamingOnlyTheCallersObjectsThrough() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_file","file_id":"file_alice"}]}]}""");

        assertThat(check.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isFalse();
    }

    @Test
    void shouldAnswerNotFoundForSomeoneElsesIdInTheBody() {
        Exchange exchange = Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_file","file_id":"file_alice"},
                 {"type":"input_file","file_id":"file_bob"}]}]}""");

        assertRefused(check.apply(exchange), ErrorCode.NOT_FOUND, "input[0].content[1].file_id", "file_bob");
    }

    @Test
    void shouldAnswerNotFoundForAnIdInThePathNobodyRecorded() {
        OwnershipCheck nothingRecorded = new OwnershipCheck(Owners.none().ownership());

        assertRefused(nothingRecorded.apply(Exchanges.on(Route.RESPONSE_GET)), ErrorCode.NOT_FOUND, "response_id", "id_1");
    }

    @Test
    void shouldCheckAContainerFilesFileIdFieldAsTheUploadIsRead() {
        Exchange exchange = Exchanges.multipart(Route.CONTAINER_FILES_CREATE, part("file_id", null, "file_bob") + END, null, spool);

        assertThat(check.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThatThrownBy(() -> ((RequestBody.Multipart) exchange.body()).upload().prepare((headers, content, out) -> { }))
                .isInstanceOfSatisfying(GatewayException.class, refused -> {
                    assertThat(refused.code()).isEqualTo(ErrorCode.NOT_FOUND);
                    assertThat(refused.param()).isEqualTo("file_id");
                });
    }
}
