package com.sandboxgateway.proxy;

import static com.sandboxgateway.support.Settings.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

class ProxyPropertiesTest {

    @Test
    void shouldRefuseAJsonLimitTooSmallForAnyRequest() {
        assertRefused(() -> new ProxyProperties(DataSize.ofBytes(100), null), "gateway.proxy.max-json-size", "100B");
    }

    @Test
    void shouldSpoolToTheTempDirectoryByDefault() {
        assertThat(new ProxyProperties(DataSize.ofMegabytes(64), null).uploadSpoolDir()).hasToString(System.getProperty("java.io.tmpdir"));
    }
}
