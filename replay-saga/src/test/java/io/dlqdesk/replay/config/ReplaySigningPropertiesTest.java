package io.dlqdesk.replay.config;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The signing properties as Spring binds them from configuration, and what each combination starts with. */
class ReplaySigningPropertiesTest {

    private static final String SECRET_1 = "an-example-secret-of-at-least-32-bytes";
    private static final String SECRET_2 = "a-second-secret-for-rotation-0123456789";

    @Test
    void anActiveKeyAmongTheKeysSignsWithIt() {
        ReplayProperties.Signing signing = bind(Map.of(
                "dlqdesk.replay.signing.active-key-id", "k2",
                "dlqdesk.replay.signing.keys.k1", SECRET_1,
                "dlqdesk.replay.signing.keys.k2", SECRET_2));

        assertThat(signing.signer().signs()).isTrue();
        assertThat(signing.signer().keyId()).contains("k2");
        assertThat(signing.toString()).contains("k1", "k2").doesNotContain(SECRET_1, SECRET_2);
    }

    @Test
    void nothingConfiguredPublishesUnsigned() {
        ReplayProperties.Signing signing = bind(Map.of());

        assertThat(signing.keys()).isEmpty();
        assertThat(signing.signer().signs()).isFalse();
    }

    @Test
    void keysWithoutAnActiveKeyRefuseToStart() {
        ReplayProperties.Signing signing = bind(Map.of("dlqdesk.replay.signing.keys.k1", SECRET_1));

        assertThatThrownBy(signing::signer).isInstanceOf(IllegalStateException.class).hasMessageContaining("active-key-id is not set");
    }

    @Test
    void anActiveKeyThatIsNotAmongTheKeysRefusesToStart() {
        ReplayProperties.Signing signing = bind(Map.of(
                "dlqdesk.replay.signing.active-key-id", "k3",
                "dlqdesk.replay.signing.keys.k1", SECRET_1));

        assertThatThrownBy(signing::signer).isInstanceOf(IllegalStateException.class).hasMessageContaining("'k3'").hasMessageContaining("[k1]");
    }

    @Test
    void aShortSecretRefusesToStartEvenWhenItIsNotTheActiveKey() {
        ReplayProperties.Signing signing = bind(Map.of(
                "dlqdesk.replay.signing.active-key-id", "k1",
                "dlqdesk.replay.signing.keys.k1", SECRET_1,
                "dlqdesk.replay.signing.keys.k2", "too-short"));

        assertThatThrownBy(signing::signer).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'k2'").hasMessageContaining("at least 32").hasMessageNotContaining("too-short");
    }

    private static ReplayProperties.Signing bind(Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        all.put("dlqdesk.replay.force-off", "false");
        return new Binder(new MapConfigurationPropertySource(all)).bind("dlqdesk.replay", ReplayProperties.class).get().signing();
    }
}
