package com.sandboxgateway.proxy;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Puts {@link OpenAiErrorReport} in place of Tomcat's HTML error page on the {@code /v1} server; the
 * management server gets {@link ProblemDetailsErrorReport} from {@link ManagementContainerErrorsConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
class ContainerErrorsConfiguration {

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> openAiContainerErrors() {
        return factory -> errorReport(factory, OpenAiErrorReport.class);
    }

    static void errorReport(TomcatServletWebServerFactory factory, Class<? extends ContainerErrorReport> report) {
        factory.addContextCustomizers(context -> ((StandardHost) context.getParent()).setErrorReportValveClass(report.getName()));
    }
}
