package com.sandboxgateway.ownership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.policy.ChainObserver;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.policy.PolicyChain;
import com.sandboxgateway.support.Exchanges;

/**
 * {@link OwnershipRecorder} on its own (no Spring): the objects an answer shows are staged in its settlement and
 * owned by the caller once it settles; a successful delete marks its object deleted.
 */
class OwnershipRecorderTest {

    private final Owners owners = Owners.none();
    private final OwnershipStore store = owners.store();
    private final OwnershipRecorder recorder = new OwnershipRecorder(store);
    /** Settles what the exchange staged, showing the answer to no inspector of its own. */
    private final PolicyChain settling = new PolicyChain(List.of(), List.of(), List.of(), ChainObserver.NONE,
            Exchanges.WITHOUT_TRANSACTIONS);

    @Test
    void shouldOwnTheResponseItsItemsTheirContainerAndTheCitedFilesOnceTheAnswerSettles() {
        Exchange exchange = Exchanges.on(Route.RESPONSES_CREATE);
        Answer answer = Answer.ofJson(Exchanges.tree("""
                {"id":"resp_1","object":"response","status":"completed","output":[
                  {"type":"code_interpreter_call","id":"ci_1","status":"completed","container_id":"cntr_1","code":"print(1)"},
                  {"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"plot.png",
                    "annotations":[{"type":"container_file_citation","container_id":"cntr_1","file_id":"cfile_1"}]}]}]}"""), true);

        recorder.inspect(exchange, answer);
        assertThat(store.find("resp_1")).as("staged, not written, until the answer settles").isEmpty();
        settling.answered(exchange, answer);

        assertThat(store.findAll(List.of("resp_1", "ci_1", "msg_1", "cntr_1", "cfile_1")))
                .extracting(OwnedObject::id, OwnedObject::kind, OwnedObject::ownerUser, OwnedObject::ownerTeam, OwnedObject::parentId)
                .containsExactlyInAnyOrder(
                        tuple("resp_1", ObjectKind.RESPONSE, "alice", "analytics", null),
                        tuple("ci_1", ObjectKind.ITEM, "alice", "analytics", "resp_1"),
                        tuple("msg_1", ObjectKind.ITEM, "alice", "analytics", "resp_1"),
                        tuple("cntr_1", ObjectKind.CONTAINER, "alice", "analytics", null),
                        tuple("cfile_1", ObjectKind.CONTAINER_FILE, "alice", "analytics", "cntr_1"));
    }

    @Test
    void shouldRecordAnUploadWithItsExpiryAndMarkItDeletedWhenItsDeleteSucceeds() {
        Exchange upload = Exchanges.on(Route.FILES_UPLOAD);
        settleAfterInspecting(upload, Answer.ofJson(Exchanges.tree("{\"id\":\"file-1\",\"object\":\"file\",\"expires_at\":1800000000}"), false));
        assertThat(store.find("file-1")).hasValueSatisfying(file -> {
            assertThat(file.kind()).isEqualTo(ObjectKind.FILE);
            assertThat(file.expiresAt()).isEqualTo(Instant.ofEpochSecond(1_800_000_000L));
            assertThat(file.isDeleted()).isFalse();
        });

        store.record("id_1", ObjectKind.FILE, Exchanges.ALICE, null, null);
        settleAfterInspecting(Exchanges.on(Route.FILE_DELETE), Answer.ofJson(Exchanges.tree("{\"id\":\"id_1\",\"deleted\":true}"), false));

        assertThat(store.find("id_1")).as("the path's file, kept on record so its id never changes hands")
                .hasValueSatisfying(file -> assertThat(file.isDeleted()).isTrue());
        assertThat(store.find("file-1")).hasValueSatisfying(file -> assertThat(file.isDeleted()).isFalse());
    }

    private void settleAfterInspecting(Exchange exchange, Answer answer) {
        recorder.inspect(exchange, answer);
        settling.answered(exchange, answer);
    }
}
