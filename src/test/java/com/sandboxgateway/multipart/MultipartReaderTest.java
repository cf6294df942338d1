package com.sandboxgateway.multipart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
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
