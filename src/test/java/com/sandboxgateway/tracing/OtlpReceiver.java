package com.sandboxgateway.tracing;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.google.protobuf.InvalidProtocolBufferException;

import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;

/** WireMock accepting OTLP/HTTP trace exports (protobuf), and the spans it received, decoded. */
final class OtlpReceiver {

    private final WireMockServer server = new WireMockServer(wireMockConfig().dynamicPort().bindAddress("127.0.0.1"));

    OtlpReceiver() {
        server.start();
        server.stubFor(post("/v1/traces").willReturn(aResponse().withStatus(200).withHeader("Content-Type", "application/x-protobuf")));
    }

    String endpoint() {
        return server.baseUrl() + "/v1/traces";
    }

    /** Every span received so far. */
    List<ReceivedSpan> spans() {
        return server.findAll(postRequestedFor(urlEqualTo("/v1/traces"))).stream().flatMap(request -> {
            try {
                return ExportTraceServiceRequest.parseFrom(request.getBody()).getResourceSpansList().stream();
            } catch (InvalidProtocolBufferException e) {
                throw new AssertionError("not an OTLP trace export: " + request.getHeader("Content-Type"), e);
            }
        }).flatMap(resource -> resource.getScopeSpansList().stream()).flatMap(scope -> scope.getSpansList().stream())
                .map(ReceivedSpan::of).toList();
    }

    /** One exported span: ids in hex, attributes as strings. */
    record ReceivedSpan(String traceId, String spanId, String parentSpanId, String name, String kind, Map<String, String> attributes) {

        static ReceivedSpan of(io.opentelemetry.proto.trace.v1.Span span) {
            HexFormat hex = HexFormat.of();
            return new ReceivedSpan(hex.formatHex(span.getTraceId().toByteArray()), hex.formatHex(span.getSpanId().toByteArray()),
                    hex.formatHex(span.getParentSpanId().toByteArray()), span.getName(), span.getKind().name(),
                    span.getAttributesList().stream().collect(Collectors.toMap(KeyValue::getKey, attribute -> text(attribute.getValue()))));
        }

        private static String text(AnyValue value) {
            return switch (value.getValueCase()) {
                case STRING_VALUE -> value.getStringValue();
                case INT_VALUE -> Long.toString(value.getIntValue());
                case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
                case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
                default -> value.toString();
            };
        }
    }
}
