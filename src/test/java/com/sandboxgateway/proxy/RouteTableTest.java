package com.sandboxgateway.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import com.sandboxgateway.api.Route;

class RouteTableTest {

    private final RouteTable routes = new RouteTable();

    @ParameterizedTest
    @CsvSource({
            "POST,   /v1/responses,                                   RESPONSES_CREATE",
            "GET,    /v1/responses/resp_1,                            RESPONSE_GET",
            "POST,   /v1/responses/resp_1/cancel,                     RESPONSE_CANCEL",
            "POST,   /v1/files,                                       FILES_UPLOAD",
            "GET,    /v1/files/file-9Xc2bT4k/content,                 FILE_CONTENT",
            "DELETE, /v1/containers/cntr_1,                           CONTAINER_DELETE",
            "POST,   /v1/containers/cntr_1/files,                     CONTAINER_FILES_CREATE",
            "GET,    /v1/containers/cntr_1/files/cfile_2/content,     CONTAINER_FILE_CONTENT",
    })
    void shouldMatchEveryForwardedRoute(String method, String path, Route expected) {
        assertThat(routes.match(method, path)).hasValueSatisfying(match -> assertThat(match.route()).isEqualTo(expected));
    }

    @Test
    void shouldBindTheIdsOfThePath() {
        assertThat(routes.match("GET", "/v1/containers/cntr_1/files/cfile_2")).hasValueSatisfying(match -> {
            assertThat(match.id("container_id")).isEqualTo("cntr_1");
            assertThat(match.id("file_id")).isEqualTo("cfile_2");
        });
    }

    @ParameterizedTest
    @CsvSource({
            "GET,    /v1/models",
            "POST,   /v1/chat/completions",
            "PUT,    /v1/files",
            "GET,    /v1/files/",
            "GET,    /v1/files/..",
            "GET,    /v1/files/%2e%2e",
            "GET,    /v1/files/a%2Fb/content",
            "GET,    /v1//files",
            "GET,    /v1/responses/resp_1/input_items",
            "HEAD,   /v1/files",
            "GET,    /v2/files",
    })
    void shouldMatchNothingElse(String method, String path) {
        assertThat(routes.match(method, path)).isEmpty();
    }
}
