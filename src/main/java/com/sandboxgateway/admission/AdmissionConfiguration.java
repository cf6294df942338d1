package com.sandboxgateway.admission;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import io.micrometer.core.instrument.MeterRegistry;

/** Puts {@link OverloadShedding} first on {@code /v1/*}, unless {@code gateway.overload.enabled} is false. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "gateway.overload.enabled", havingValue = "true", matchIfMissing = true)
class AdmissionConfiguration {

    @Bean
    FilterRegistrationBean<OverloadShedding> overloadShedding(OverloadProperties properties, MeterRegistry meters) {
        FilterRegistrationBean<OverloadShedding> registration = new FilterRegistrationBean<>(new OverloadShedding(properties, meters));
        registration.addUrlPatterns("/v1/*");
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.setName("overloadShedding");
        return registration;
    }
}
