package com.sandboxgateway.multipart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.support.Trickle;

class MultipartReaderTest {

    static final String BOUNDARY = "----sdkBoundary7MA4YWxk";
    static final String BODY = "--" + BOUNDARY + "\r\n"
            + "Content-Disposition: form-data; name=\"purpose\"\r\n\r\n"
            + "user_data\r\n"
            + "--" + BOUNDARY + "\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"sa\\\"les.csv\"\r\n"
            + "Content-Type: text/csv\r\n\r\n"
            + "a,b\r\n--not-the-boundary\r\n\r\n--" + BOUNDARY.substring(0, 10) + "\r\n1,2\r\n"
            + "--" + BOUNDARY + "--\r\n";

    @Test
    void shouldSplitPartsWhateverTheReadBoundaries() throws IOException {
        for (int chunk : new int[] {1, 2, 3, 7, 64, 100_000}) {
            List<String[]> parts = readAll(new Trickle(BODY.getBytes(StandardCharsets.UTF_8), chunk), BOUNDARY);

            assertThat(parts).hasSize(2);
            assertThat(parts.get(0)).containsExactly("purpose", null, null, "user_data");
            assertThat(parts.get(1)).containsExactly("file", "sa\"les.csv", "text/csv",
                    "a,b\r\n--not-the-boundary\r\n\r\n--" + BOUNDARY.substring(0, 10) + "\r\n1,2");
        }
    }

    @Test
    void shouldReadALargePartInSmallPiecesWhateverTheArrivalChunks() throws IOException {
        String content = ("row,\r\n--" + BOUNDARY.substring(0, 12) + "\r\n").repeat(20_000);
        String body = "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n" + content + "\r\n--" + BOUNDARY + "--\r\n";
        for (int chunk : new int[] {5, 4096, 1_000_000}) {
            for (int piece : new int[] {1, 7, 1000, 50_000}) {
                MultipartReader reader = new MultipartReader(new Trickle(body.getBytes(StandardCharsets.UTF_8), chunk), BOUNDARY);
                ByteArrayOutputStream read = new ByteArrayOutputStream();
                InputStream part = reader.next().content();
                byte[] buffer = new byte[piece];
                for (int n = part.read(buffer, 0, piece); n >= 0; n = part.read(buffer, 0, piece)) {
                    read.write(buffer, 0, n);
                }

                assertThat(read.toString(StandardCharsets.UTF_8)).as("arriving in %d, read in %d", chunk, piece).isEqualTo(content);
                assertThat(reader.next()).isNull();
            }
        }
    }

    @Test
    void shouldIgnorePreambleEpilogueAndPaddingAfterBoundaries() throws IOException {
        String body = "preamble text\r\n--b \t\r\nContent-Disposition: form-data; name=x\r\n\r\n1\r\n--b--\r\nepilogue";

        List<String[]> parts = readAll(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), "b");

        assertThat(parts).singleElement().satisfies(part -> assertThat(part).containsExactly("x", null, null, "1"));
    }

    @Test
    void shouldRefuseABodyWithoutItsClosingBoundary() {
        String body = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\na,b\r\n1,2";

        assertThatThrownBy(() -> readAll(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), "b"))
                .isInstanceOf(MalformedMultipartException.class).hasMessageContaining("closing boundary");
    }

    @Test
    void shouldRefuseHeadersThatNeverEnd() {
        String body = "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n" + "X-Pad: y\r\n".repeat(3000);

        assertThatThrownBy(() -> readAll(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), "b"))
                .isInstanceOf(MalformedMultipartException.class);
    }

    @Test
    void shouldSkipWhatIsLeftOfAPartNobodyRead() throws IOException {
        MultipartReader reader = new MultipartReader(new ByteArrayInputStream(BODY.getBytes(StandardCharsets.UTF_8)), BOUNDARY);

        assertThat(reader.next().headers().name()).isEqualTo("purpose");
        assertThat(reader.next().headers().name()).isEqualTo("file");
        assertThat(reader.next()).isNull();
    }

    static List<String[]> readAll(InputStream in, String boundary) throws IOException {
        MultipartReader reader = new MultipartReader(in, boundary);
        List<String[]> parts = new ArrayList<>();
        for (MultipartReader.Part part = reader.next(); part != null; part = reader.next()) {
            String content = new String(part.content().readAllBytes(), StandardCharsets.UTF_8);
            parts.add(new String[] {part.headers().name(), part.headers().filename(), part.headers().contentType(), content});
        }
        return parts;
    }
}
