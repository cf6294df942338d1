package com.sandboxgateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import tools.jackson.databind.json.JsonMapper;

/** A spool a crash cut short in the middle of an append still reads, and takes new records. */
class AuditSpoolTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void shouldDropTheAppendACrashCutShortAndKeepEveryRecordBeforeIt(@TempDir Path dir) throws Exception {
        AuditSpool before = new AuditSpool(dir, json);
        before.append(JdbcAuditStoreTest.execution("kept-0"));
        before.append(JdbcAuditStoreTest.execution("kept-1"));
        byte[] spooled = Files.readAllBytes(dir.resolve("audit-spool.jsonl"));
        // Half of a third record, as a SIGKILL during its write leaves it.
        Files.write(dir.resolve("audit-spool.jsonl"), Arrays.copyOf(spooled, spooled.length / 4),
                StandardOpenOption.APPEND);

        AuditSpool afterCrash = new AuditSpool(dir, json);
        afterCrash.append(JdbcAuditStoreTest.execution("after-restart"));

        assertThat(afterCrash.read()).extracting(AuditRecord::callId).containsExactly("kept-0", "kept-1", "after-restart");
        assertThat(afterCrash.depth()).isEqualTo(3);
        assertThat(Files.readString(dir.resolve("audit-spool.jsonl"), StandardCharsets.UTF_8)).endsWith("\n");
    }
}
