package com.sandboxgateway.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.Transports;
import io.netty.channel.epoll.EpollSocketChannel;

/**
 * On Linux the gateway reaches Redis through epoll itself, not Java's NIO selector: the selector's wake-ups cost an
 * eighth of the gateway's CPU per request on Redis + PostgreSQL (bench/README.md, session 30).
 */
@EnabledOnOs(OS.LINUX)
class RedisTransportTest {

    @Test
    void shouldReachRedisThroughEpollOnLinux() {
        try (RedisState state = new RedisState(RedisURI.create("redis://127.0.0.1:6379"), Duration.ofSeconds(2))) {
            assertThat(Transports.socketChannelClass()).isEqualTo(EpollSocketChannel.class);
            assertThat(state.reachable()).isTrue();
        }
    }
}
