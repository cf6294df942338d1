package com.sandboxgateway.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/** Keeps hand-written mappings consistent: a forgotten header or transformer fails here, not in a client. */
class SimulatorMappingsTest {

    private final ObjectMapper json = new ObjectMapper();
    private final PathMatchingResourcePatternResolver resolver = new PathMatchingResourcePatternResolver();

    @Test
    void shouldTagEveryResponseWithRequestIdAndProcessingTime() throws IOException {
        assertThat(mappings()).isNotEmpty().allSatisfy(mapping -> {
            JsonNode headers = mapping.at("/response/headers");
            assertThat(headers.path("x-request-id").asText()).as(name(mapping)).startsWith("req_{{");
            assertThat(headers.path("openai-processing-ms").asText()).as(name(mapping)).contains("{{");
            assertThat(headers.path("Content-Type").asText()).as(name(mapping)).isNotBlank();
        });
    }

    @Test
    void shouldTemplateEveryResponse() throws IOException {
        assertThat(mappings()).allSatisfy(mapping -> assertThat(mapping.at("/response/transformers").toString())
                .as(name(mapping)).contains("response-template"));
    }

    @Test
    void shouldOnlyReferToBodyFilesThatExist() throws IOException {
        for (JsonNode mapping : mappings()) {
            String bodyFile = mapping.at("/response/bodyFileName").asText();
            if (!bodyFile.isEmpty()) {
                assertThat(resolver.getResource("classpath:simulator/__files/" + bodyFile).exists())
                        .as(name(mapping) + " -> " + bodyFile).isTrue();
            }
        }
    }

    @Test
    void shouldKeepBinaryBodiesOutOfBodyFiles() throws IOException {
        // With templating on, WireMock reads a body file as text and would corrupt binary bytes.
        for (JsonNode mapping : mappings()) {
            assertThat(mapping.at("/response/bodyFileName").asText()).as(name(mapping)).doesNotEndWith(".png");
        }
    }

    private List<JsonNode> mappings() throws IOException {
        Resource[] resources = resolver.getResources("classpath:simulator/mappings/*.json");
        return Arrays.stream(resources).map(this::read).toList();
    }

    private JsonNode read(Resource resource) {
        try (InputStream in = resource.getInputStream()) {
            return json.readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException("Unreadable mapping " + resource, e);
        }
    }

    private static String name(JsonNode mapping) {
        return mapping.path("name").asText();
    }
}
