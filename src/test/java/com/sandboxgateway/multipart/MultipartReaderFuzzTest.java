package com.sandboxgateway.multipart;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Multipart bodies from fuzzed bytes: any body is read part by part or refused with a
 * {@link MalformedMultipartException} (the typed 400), never another exception; and a well-formed
 * body of fuzzed parts reads back to exactly those parts. Replays {@code MultipartReaderFuzzTestInputs/}
 * in every build; {@code JAZZER_FUZZ=1} fuzzes (README, Fuzzing).
 */
class MultipartReaderFuzzTest {

    private static final String BOUNDARY = "----fuzzBoundary7MA4YWxkTrZu0gW";

    @FuzzTest(maxDuration = "60s")
    void anyBodyIsReadOrRefusedAsMalformed(byte[] body) throws IOException {
        MultipartReader reader = new MultipartReader(new ByteArrayInputStream(body), BOUNDARY);
        try {
            int parts = 0;
            for (MultipartReader.Part part = reader.next(); part != null; part = reader.next()) {
                part.content().readAllBytes();
                assertThat(++parts).isLessThanOrEqualTo(body.length);
            }
        } catch (MalformedMultipartException refused) {
            assertThat(refused.getMessage()).isNotBlank();
        }
    }

    @FuzzTest(maxDuration = "60s")
    void wellFormedBodiesReadBackExactly(FuzzedDataProvider data) throws IOException {
        List<byte[]> contents = new ArrayList<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(data.consumeAsciiString(20).replace(BOUNDARY, "").getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(("\r\n--" + BOUNDARY).getBytes(StandardCharsets.US_ASCII));
        for (int i = data.consumeInt(1, 4); i > 0; i--) {
            byte[] content = data.consumeBytes(200);
            if (new String(content, StandardCharsets.ISO_8859_1).contains("\r\n--" + BOUNDARY)) {
                return;
            }
            contents.add(content);
            body.writeBytes(("\r\nContent-Disposition: form-data; name=\"part" + i + "\"\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(content);
            body.writeBytes(("\r\n--" + BOUNDARY).getBytes(StandardCharsets.US_ASCII));
        }
        body.writeBytes("--\r\n".getBytes(StandardCharsets.US_ASCII));

        MultipartReader reader = new MultipartReader(new ByteArrayInputStream(body.toByteArray()), BOUNDARY);
        List<byte[]> read = new ArrayList<>();
        for (MultipartReader.Part part = reader.next(); part != null; part = reader.next()) {
            read.add(part.content().readAllBytes());
        }
        assertThat(read).hasSameSizeAs(contents);
        for (int i = 0; i < contents.size(); i++) {
            assertThat(read.get(i)).isEqualTo(contents.get(i));
        }
    }
}
