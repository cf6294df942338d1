package com.sandboxgateway.policy.input;

import static com.sandboxgateway.support.Decisions.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.sandboxgateway.api.ErrorCode;
import com.sandboxgateway.api.Route;
import com.sandboxgateway.policy.Decision;
import com.sandboxgateway.policy.Exchange;
import com.sandboxgateway.support.Exchanges;
import com.sandboxgateway.upstream.FileFetcher;
import com.sun.net.httpserver.HttpServer;

class FileUrlsTest {

    private static final String CSV = "region,revenue\nnorth,10\n";

    private HttpServer files;
    private FileUrls step;

    @BeforeEach
    void startFileHost() throws IOException {
        files = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        files.createContext("/sales.csv", exchange -> {
            byte[] body = CSV.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/csv");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        files.start();
        step = new FileUrls(new FileFetcher(List.of(host()), Duration.ofSeconds(5), Duration.ofSeconds(5),
                1024 * 1024));
    }

    @AfterEach
    void stopFileHost() {
        files.stop(0);
    }

    @Test
    void shouldPutAFileFromAListedHostInlineForTheFileRules() {
        Exchange exchange = request("\"file_url\":\"" + host() + "/sales.csv\"");

        assertThat(step.apply(exchange)).isEqualTo(Decision.PROCEED);
        assertThat(exchange.bodyReplaced()).isTrue();
        var part = exchange.json().path("input").get(0).path("content").get(0);
        assertThat(part.path("file_data").asString())
                .isEqualTo("data:text/csv;base64," + Base64.getEncoder().encodeToString(CSV.getBytes(StandardCharsets.UTF_8)));
        assertThat(part.path("filename").asString()).isEqualTo("sales.csv");
        assertThat(part.has("file_url")).isFalse();
    }

    @Test
    void shouldRefuseAUrlOnAnyOtherHostNamingTheField() {
        Exchange exchange = request("\"file_url\":\"https://elsewhere.example.com/sales.csv\"");

        assertRefused(step.apply(exchange), ErrorCode.FILE_URL_NOT_ALLOWED, "input[0].content[0].file_url", "input[0].content[0].file_url: ");
        assertThat(exchange.bodyReplaced()).isFalse();
    }

    @Test
    void shouldRefuseAPartGivingBothAUrlAndData() {
        assertRefused(step.apply(request("\"file_url\":\"" + host() + "/sales.csv\",\"file_data\":\"YQ==\"")), ErrorCode.INVALID_REQUEST,
                "input[0].content[0].file_url", "not both");
    }

    private static Exchange request(String fileFields) {
        return Exchanges.json(Route.RESPONSES_CREATE, """
                {"model":"gpt-5","input":[{"role":"user","content":[{"type":"input_file",%s}]}]}""".formatted(fileFields));
    }

    private String host() {
        return "http://127.0.0.1:" + files.getAddress().getPort();
    }
}
