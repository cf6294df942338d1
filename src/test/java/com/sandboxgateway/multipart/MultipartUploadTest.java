package com.sandboxgateway.multipart;

import static com.sandboxgateway.multipart.MultipartReaderTest.BODY;
import static com.sandboxgateway.multipart.MultipartReaderTest.BOUNDARY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

class MultipartUploadTest {

    private static final String CONTENT_TYPE = "multipart/form-data; boundary=" + BOUNDARY;

    @TempDir
    static Path SPOOL;

    @Test
    void shouldPassAnUploadWithoutRulesThroughUntouched() {
        InputStream source = stream(BODY);
        MultipartUpload upload = new MultipartUpload(source, BODY.length(), CONTENT_TYPE, SPOOL);

        assertThat(upload.body()).isSameAs(source);
        assertThat(upload.length()).isEqualTo(BODY.length());
    }

    @Test
    void shouldRewriteFieldsAndFilesAsTheyPass() throws IOException {
        MultipartUpload upload = new MultipartUpload(stream(BODY), BODY.length(), CONTENT_TYPE, SPOOL);
        upload.onField("purpose", value -> value.toUpperCase());
        upload.prepare((headers, content, out) -> out.write(("[" + headers.filename() + "]").getBytes(StandardCharsets.UTF_8)));

        byte[] rewritten = upload.body().readAllBytes();
        long length = upload.length();
        upload.close();

        List<String[]> parts = MultipartReaderTest.readAll(new ByteArrayInputStream(rewritten), BOUNDARY);
        assertThat(parts.get(0)).containsExactly("purpose", null, null, "USER_DATA");
        assertThat(parts.get(1)).containsExactly("file", "sa\"les.csv", "text/csv", "[sa\"les.csv]");
        assertThat(length).isEqualTo(rewritten.length);
        assertThat(SPOOL).isEmptyDirectory();
        assertThat(new String(rewritten, StandardCharsets.UTF_8)).startsWith("--" + BOUNDARY + "\r\n").endsWith("--" + BOUNDARY + "--\r\n");
    }

    @Test
    void shouldRefuseOnAFieldAfterTheFileBeforeAnythingIsSent() {
        String body = "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\na,b\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nfine-tune\r\n--b--\r\n";
        MultipartUpload upload = new MultipartUpload(stream(body), body.length(), "multipart/form-data; boundary=\"b\"", SPOOL);
        upload.onField("purpose", value -> {
            throw new GatewayException(ErrorCode.INVALID_REQUEST, "no " + value);
        });

        assertThatThrownBy(() -> upload.prepare(MultipartUploadTest::copy)).isInstanceOf(GatewayException.class).hasMessage("no fine-tune");
        assertThat(SPOOL).isEmptyDirectory();
    }

    @Test
    void shouldReportAMalformedBodyAsAnInvalidRequest() {
        String body = "--b\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\nuser_data";
        MultipartUpload upload = new MultipartUpload(stream(body), body.length(), "multipart/form-data; boundary=b", SPOOL);
        upload.onField("purpose", value -> value);

        assertThatThrownBy(() -> upload.prepare(MultipartUploadTest::copy)).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST));
    }

    @Test
    void shouldRefuseAContentTypeWithoutBoundary() {
        assertThatThrownBy(() -> new MultipartUpload(stream(BODY), 1, "multipart/form-data", SPOOL))
                .isInstanceOf(GatewayException.class).hasMessageContaining("boundary");
    }

    private static InputStream stream(String body) {
        return new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8));
    }

    private static void copy(PartHeaders headers, InputStream content, OutputStream out) throws IOException {
        content.transferTo(out);
    }
}
