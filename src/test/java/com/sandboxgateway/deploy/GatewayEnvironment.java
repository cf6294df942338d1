package com.sandboxgateway.deploy;

import java.lang.reflect.RecordComponent;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.type.filter.AnnotationTypeFilter;
import org.springframework.util.ClassUtils;

/**
 * The environment variables deployments may set on the gateway: the names it binds, by the contract,
 * and a check that each {@code GATEWAY_} name really reaches a {@code gateway.*} property.
 */
final class GatewayEnvironment {

    /** Names the gateway, Spring Boot or the JVM read. Anything else in a deployment file is a typo. */
    static final Set<String> BOUND = Set.of(
            "OPENAI_API_KEY", "GATEWAY_UPSTREAM_BASE_URL", "GATEWAY_UPSTREAM_ALLOW_SIMULATOR", "GATEWAY_PSEUDONYM_KEY",
            "SPRING_DATASOURCE_URL", "SPRING_DATASOURCE_USERNAME", "SPRING_DATASOURCE_PASSWORD",
            "GATEWAY_STATE_BACKEND", "GATEWAY_STATE_ON_FAILURE",
            "SPRING_DATA_REDIS_HOST", "SPRING_DATA_REDIS_PORT", "SPRING_DATA_REDIS_PASSWORD", "SPRING_DATA_REDIS_SSL_ENABLED",
            "GATEWAY_AUDIT_SPOOL_DIR", "GATEWAY_AUDIT_SIGNING_KEY", "GATEWAY_AUDIT_LOG_ORIGIN", "GATEWAY_AUDIT_CHECKPOINT_INTERVAL",
            "GATEWAY_AUDIT_WITNESS_FILE", "GATEWAY_AUDIT_WITNESS_URLS", "GATEWAY_AUDIT_WITNESS_TIMEOUT",
            "SPRING_PROFILES_ACTIVE", "SPRING_CONFIG_ADDITIONAL_LOCATION",
            "LOGGING_STRUCTURED_FORMAT_CONSOLE", "JDK_JAVA_OPTIONS",
            "MANAGEMENT_TRACING_EXPORT_ENABLED", "MANAGEMENT_TRACING_SAMPLING_PROBABILITY", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_SERVICE_NAME", "OTEL_RESOURCE_ATTRIBUTES");

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)");

    private GatewayEnvironment() {
    }

    /**
     * The variables that reach the gateway's configuration: a {@code ${NAME}} placeholder of
     * application.yml, or a name Spring Boot's relaxed binding maps to a {@code @ConfigurationProperties}
     * record property ({@code gateway.audit.spool-dir} is {@code GATEWAY_AUDIT_SPOOLDIR}, or
     * {@code GATEWAY_AUDIT_SPOOL_DIR} in the legacy form that keeps the dash as an underscore).
     */
    static Set<String> gatewayVariables() {
        Set<String> names = new TreeSet<>();
        PLACEHOLDER.matcher(DeployFiles.text("src/main/resources/application.yml")).results().forEach(r -> names.add(r.group(1)));
        ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false);
        scanner.addIncludeFilter(new AnnotationTypeFilter(ConfigurationProperties.class));
        for (var candidate : scanner.findCandidateComponents("com.sandboxgateway")) {
            Class<?> type = ClassUtils.resolveClassName(candidate.getBeanClassName(), GatewayEnvironment.class.getClassLoader());
            ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
            String prefix = annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
            addProperties(prefix, type, names);
        }
        return names;
    }

    private static void addProperties(String prefix, Class<?> type, Set<String> names) {
        if (!type.isRecord()) {
            String upper = prefix.replace('.', '_').toUpperCase(Locale.ROOT);
            names.add(upper.replace("-", ""));
            names.add(upper.replace('-', '_'));
            return;
        }
        for (RecordComponent component : type.getRecordComponents()) {
            addProperties(prefix + "." + kebab(component.getName()), component.getType(), names);
        }
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }
}
