package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import com.openai.core.MultipartField;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FileDeleted;
import com.openai.models.files.FileObject;
import com.openai.models.files.FilePurpose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OfflineSimulatorFilesTest extends SimulatorTest {

    private static final String CSV = "month,revenue\n2025-01,12000\n2025-02,13500\n";

    // A binary upload whose bytes are not valid UTF-8, to prove sizes are counted in bytes.
    private static final byte[] BINARY = {(byte) 0x89, 'P', 'N', 'G', 0, (byte) 0xff, (byte) 0xfe, 1, 2, 3, 4};

    @Test
    void shouldEchoTheUploadedFilenameSizeAndPurpose(@TempDir Path folder) throws IOException {
        Path csv = Files.writeString(folder.resolve("sales.csv"), CSV);

        FileObject file = openAi.files().create(FileCreateParams.builder()
                .file(csv)
                .purpose(FilePurpose.USER_DATA)
                .build());

        assertThat(file.id()).startsWith("file-");
        assertThat(file.filename()).isEqualTo("sales.csv");
        assertThat(file.bytes()).isEqualTo(CSV.getBytes(StandardCharsets.UTF_8).length);
        assertThat(file.purpose()).isEqualTo(FileObject.Purpose.USER_DATA);
        assertThat(file.expiresAt()).isEmpty();
        assertThat(file.createdAt()).isCloseTo(Instant.now().getEpochSecond(), within(5L));
    }

    @Test
    void shouldCountBinaryUploadsInBytes() {
        FileObject file = openAi.files().create(FileCreateParams.builder()
                .file(MultipartField.<InputStream>builder()
                        .value(new ByteArrayInputStream(BINARY))
                        .filename("chart.png")
                        .contentType("image/png")
                        .build())
                .purpose(FilePurpose.ASSISTANTS)
                .build());

        assertThat(file.filename()).isEqualTo("chart.png");
        assertThat(file.bytes()).isEqualTo(BINARY.length);
        assertThat(file.purpose()).isEqualTo(FileObject.Purpose.ASSISTANTS);
    }

    @Test
    void shouldExpireTheFileAfterTheRequestedSeconds() {
        FileObject file = openAi.files().create(FileCreateParams.builder()
                .file(CSV.getBytes(StandardCharsets.UTF_8))
                .purpose(FilePurpose.USER_DATA)
                .expiresAfter(FileCreateParams.ExpiresAfter.builder().seconds(86_400).build())
                .build());

        assertThat(file.expiresAt()).contains(file.createdAt() + 86_400);
    }

    @Test
    void shouldGiveEveryUploadAFreshId() {
        FileCreateParams upload = FileCreateParams.builder()
                .file(CSV.getBytes(StandardCharsets.UTF_8))
                .purpose(FilePurpose.USER_DATA)
                .build();

        assertThat(openAi.files().create(upload).id()).isNotEqualTo(openAi.files().create(upload).id());
    }

    @Test
    void shouldListFiles() {
        var page = openAi.files().list();

        assertThat(page.data()).isNotEmpty();
        assertThat(page.data().get(0).filename()).isEqualTo("sales.csv");
        assertThat(page.hasMore()).contains(false);
    }

    @Test
    void shouldRetrieveAFileWithTheRequestedId() {
        FileObject file = openAi.files().retrieve("file-abc123");

        assertThat(file.id()).isEqualTo("file-abc123");
        assertThat(file.filename()).isEqualTo("sales.csv");
    }

    @Test
    void shouldDownloadCsvContent() {
        var response = openAi.files().content("file-abc123");

        assertThat(response.headers().values("Content-Type")).containsExactly("application/octet-stream");
        String csv = new String(SimulatorClients.bytes(response), StandardCharsets.UTF_8);
        assertThat(csv).startsWith("month,revenue");
        assertThat(csv.lines().count()).isGreaterThan(1);
    }

    @Test
    void shouldDeleteAFile() {
        FileDeleted deleted = openAi.files().delete("file-abc123");

        assertThat(deleted.id()).isEqualTo("file-abc123");
        assertThat(deleted.deleted()).isTrue();
    }
}
