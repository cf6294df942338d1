package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.openai.core.MultipartField;
import com.openai.errors.NotFoundException;
import com.openai.models.files.FileCreateParams;
import com.openai.models.files.FileDeleted;
import com.openai.models.files.FileListParams;
import com.openai.models.files.FileObject;
import com.openai.models.files.FilePurpose;

/** The Files API keeps what was uploaded: list, retrieve, content and delete agree with the upload. */
class OfflineSimulatorFilesTest extends SimulatorTest {

    private static final String CSV = "month,revenue\n2025-01,12000\n2025-02,13500\n";

    // A binary upload whose bytes are not valid UTF-8, to prove sizes and contents are kept as bytes.
    private static final byte[] BINARY = {(byte) 0x89, 'P', 'N', 'G', 0, (byte) 0xff, (byte) 0xfe, 1, 2, 3, 4};

    @Test
    void shouldKeepTheUploadForListRetrieveAndContent(@TempDir Path folder) throws IOException {
        Path csv = Files.writeString(folder.resolve("sales.csv"), CSV);

        FileObject file = openAi.files().create(FileCreateParams.builder().file(csv).purpose(FilePurpose.USER_DATA).build());

        assertThat(file.id()).startsWith("file-");
        assertThat(file.filename()).isEqualTo("sales.csv");
        assertThat(file.bytes()).isEqualTo(CSV.getBytes(StandardCharsets.UTF_8).length);
        assertThat(file.purpose()).isEqualTo(FileObject.Purpose.USER_DATA);
        assertThat(file.expiresAt()).isEmpty();
        assertThat(file.createdAt()).isCloseTo(Instant.now().getEpochSecond(), within(5L));
        assertThat(openAi.files().list().data().getFirst().id()).as("newest first").isEqualTo(file.id());
        assertThat(openAi.files().retrieve(file.id())).isEqualTo(file);
        assertThat(new String(SimulatorClients.bytes(openAi.files().content(file.id())), StandardCharsets.UTF_8)).isEqualTo(CSV);
    }

    @Test
    void shouldKeepBinaryAndLargeUploadsByteForByte() {
        byte[] large = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(large);

        for (byte[] content : new byte[][] {BINARY, large}) {
            FileObject file = openAi.files().create(FileCreateParams.builder()
                    .file(MultipartField.<InputStream>builder().value(new ByteArrayInputStream(content)).filename("chart.png")
                            .contentType("image/png").build())
                    .purpose(FilePurpose.ASSISTANTS).build());

            assertThat(file.bytes()).isEqualTo(content.length);
            assertThat(SimulatorClients.bytes(openAi.files().content(file.id()))).isEqualTo(content);
        }
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
    void shouldPageAndFilterTheList() {
        FileCreateParams.Builder upload = FileCreateParams.builder().file(CSV.getBytes(StandardCharsets.UTF_8));
        FileObject older = openAi.files().create(upload.purpose(FilePurpose.EVALS).build());
        FileObject newer = openAi.files().create(upload.purpose(FilePurpose.EVALS).build());

        var first = openAi.files().list(FileListParams.builder().purpose("evals").limit(1).build());
        var second = openAi.files().list(FileListParams.builder().purpose("evals").limit(1).after(newer.id()).build());

        assertThat(first.data()).extracting(FileObject::id).containsExactly(newer.id());
        assertThat(first.hasMore()).contains(true);
        assertThat(second.data()).extracting(FileObject::id).containsExactly(older.id());
        assertThat(openAi.files().list(FileListParams.builder().purpose("vision").build()).data())
                .noneMatch(file -> file.id().equals(newer.id()));
    }

    @Test
    void shouldForgetADeletedFile() {
        FileObject file = openAi.files().create(FileCreateParams.builder().file(CSV.getBytes(StandardCharsets.UTF_8))
                .purpose(FilePurpose.USER_DATA).build());

        FileDeleted deleted = openAi.files().delete(file.id());

        assertThat(deleted.id()).isEqualTo(file.id());
        assertThat(deleted.deleted()).isTrue();
        assertThatThrownBy(() -> openAi.files().retrieve(file.id())).isInstanceOf(NotFoundException.class);
        assertThatThrownBy(() -> openAi.files().content(file.id())).isInstanceOf(NotFoundException.class);
        assertThat(openAi.files().list().data()).noneMatch(listed -> listed.id().equals(file.id()));
    }
}
