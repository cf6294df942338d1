package com.sandboxgateway.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.GatewayException;

/** Which URLs the file_url fetcher refuses before it opens any connection, and which entries it refuses to start with. */
class FileFetcherTest {

    private final FileFetcher fetcher = new FileFetcher(List.of("files.example.com", "data.example.com:8443",
            "http://intranet.example.com:8080"), Duration.ofSeconds(1), Duration.ofSeconds(1), 1024);

    @Test
    void shouldRefuseEveryUrlThatIsNotExactlyAListedSource() {
        for (String url : List.of("https://other.example.com/a.csv", "http://files.example.com/a.csv",
                "https://files.example.com:8443/a.csv", "https://data.example.com/a.csv", "https://intranet.example.com:8080/a.csv",
                "http://intranet.example.com/a.csv", "https://user:pw@files.example.com/a.csv", "ftp://files.example.com/a.csv",
                "file:///etc/passwd", "not a url", "https://files.example.com.evil.net/a.csv")) {
            assertThatThrownBy(() -> fetcher.fetch(url)).as(url).isInstanceOfSatisfying(GatewayException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.FILE_URL_NOT_ALLOWED));
        }
    }

    @Test
    void shouldRefuseToStartWithAnEntryThatIsNotAHost() {
        for (String entry : List.of("https://files.example.com/exports", "ftp://files.example.com", "*", "files example com",
                "user@files.example.com")) {
            assertThatThrownBy(() -> new FileFetcher(List.of(entry), Duration.ofSeconds(1), Duration.ofSeconds(1), 1024))
                    .as(entry).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("file-urls.fetch-from")
                    .hasMessageContaining(entry);
        }
    }
}
