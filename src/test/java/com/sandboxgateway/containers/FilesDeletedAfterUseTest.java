package com.sandboxgateway.containers;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.Route;
import com.sandboxgateway.openai.Answer;
import com.sandboxgateway.ownership.ObjectKind;
import com.sandboxgateway.ownership.OwnedObject;
import com.sandboxgateway.ownership.Owners;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.upstream.LocalUpstream;

/**
 * {@link FilesDeletedAfterUse} on its own (no Spring), against a local upstream: the files a response used (its auto
 * container's {@code file_ids}, its {@code input_file}s) are deleted once it has finished, in the foreground or,
 * noted in {@code file_use}, in the background; a failed deletion leaves the file on record for the reaper.
 */
class FilesDeletedAfterUseTest {

    private static final String USING_TWO_FILES = """
            {"model":"gpt-4.1","background":true,
             "tools":[{"type":"code_interpreter","container":{"type":"auto","file_ids":["file-a"]}}],
             "input":[{"role":"user","content":[{"type":"input_text","text":"plot"},{"type":"input_file","file_id":"file-b"}]}]}""";

    private final Owners owners = Owners.none().owning(Exchanges.ALICE, "file-a", ObjectKind.FILE)
            .owning(Exchanges.ALICE, "file-b", ObjectKind.FILE);

    @Test
    void shouldDeleteTheFilesAFinishedResponseUsedAndMarkThemDeleted() throws Exception {
        try (LocalUpstream upstream = new LocalUpstream(call -> call.endsWith("file-a")
                ? new LocalUpstream.Reply(200, "{\"id\":\"file-a\",\"deleted\":true}")
                : new LocalUpstream.Reply(404, "{\"error\":{\"message\":\"already gone\"}}"))) {
            FilesDeletedAfterUse action = new FilesDeletedAfterUse(upstream.client(), owners.store(), owners.jdbc());

            action.follow(Exchanges.json(Route.RESPONSES_CREATE, USING_TWO_FILES.replace("\"background\":true,", "")), response("completed"));

            assertThat(upstream.calls()).containsExactly("DELETE /v1/files/file-a", "DELETE /v1/files/file-b");
            assertThat(deleted("file-a")).isTrue();
            assertThat(deleted("file-b")).as("already gone upstream: deleted all the same").isTrue();
        }
    }

    @Test
    void shouldNoteTheFilesOfABackgroundResponseAndDeleteThemWhenAFetchShowsItFinished() throws Exception {
        try (LocalUpstream upstream = new LocalUpstream(call -> call.endsWith("file-a")
                ? new LocalUpstream.Reply(200, "{\"id\":\"file-a\",\"deleted\":true}")
                : new LocalUpstream.Reply(500, "{\"error\":{\"message\":\"try later\"}}"))) {
            FilesDeletedAfterUse action = new FilesDeletedAfterUse(upstream.client(), owners.store(), owners.jdbc());

            action.follow(Exchanges.json(Route.RESPONSES_CREATE, USING_TWO_FILES), response("queued"));
            assertThat(upstream.calls()).as("still running: its files are in use").isEmpty();
            assertThat(notedFiles()).isEqualTo(2);

            action.follow(Exchanges.on(Route.RESPONSE_GET), response("completed"));

            assertThat(upstream.calls()).containsExactlyInAnyOrder("DELETE /v1/files/file-a", "DELETE /v1/files/file-b");
            assertThat(deleted("file-a")).isTrue();
            assertThat(deleted("file-b")).as("the upstream failed: left to the reaper").isFalse();
            assertThat(notedFiles()).isZero();
        }
    }

    private boolean deleted(String file) {
        return owners.store().find(file).map(OwnedObject::isDeleted).orElseThrow();
    }

    private long notedFiles() {
        return owners.jdbc().sql("SELECT COUNT(*) FROM file_use WHERE response_id = 'resp_1'").query(Long.class).single();
    }

    private static Answer response(String status) {
        return Answer.ofJson(Exchanges.tree("{\"id\":\"resp_1\",\"object\":\"response\",\"status\":\"" + status + "\",\"output\":[]}"), true);
    }
}
