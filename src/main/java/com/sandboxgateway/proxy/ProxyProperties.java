package com.sandboxgateway.proxy;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import com.sandboxgateway.api.InvalidSettingException;

/**
 * Limits of the {@code /v1} proxy itself.
 *
 * @param maxJsonSize largest JSON request body, inspected JSON answer or single streamed event the
 *        gateway holds in memory; larger ones are refused rather than risking the heap
 * @param uploadSpoolDir where uploads wait, rewritten, until they have passed every rule; each is
 *        deleted once sent. Defaults to the system temp directory
 */
@ConfigurationProperties("gateway.proxy")
record ProxyProperties(@DefaultValue("64MB") DataSize maxJsonSize, Path uploadSpoolDir) {

    ProxyProperties {
        if (maxJsonSize.toBytes() < 1024 || maxJsonSize.toBytes() > Integer.MAX_VALUE - 8) {
            throw new InvalidSettingException("gateway.proxy.max-json-size", maxJsonSize.toString(),
                    "it must be between 1KB and 2GB", "Set the largest JSON body the gateway holds in memory, e.g. 64MB.");
        }
        if (uploadSpoolDir == null) {
            uploadSpoolDir = Path.of(System.getProperty("java.io.tmpdir"));
        }
    }

    int maxJsonBytes() {
        return (int) maxJsonSize.toBytes();
    }
}
