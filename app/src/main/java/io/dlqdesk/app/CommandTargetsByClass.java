package io.dlqdesk.app;

import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.common.ReflectionUtils;
import org.axonframework.common.annotation.AnnotationUtils;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.command.TargetAggregateIdentifier;
import org.axonframework.modelling.command.TargetAggregateVersion;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;

import java.lang.annotation.Annotation;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Axon's annotation-based command target resolution ({@code @TargetAggregateIdentifier}, {@code @TargetAggregateVersion}),
 * with where each command class keeps them looked up once. Axon's resolver goes through every method and field of the
 * command, and the annotations of each, for every command it routes: a tenth of the ingest workers' CPU in a profile of
 * full-size ingest rounds. Members are found as Axon finds them (methods first, then fields, the first annotated one);
 * a command whose target cannot be read is handed to Axon's resolver, so it is refused in Axon's own words.
 */
final class CommandTargetsByClass implements CommandTargetResolver {

    private final CommandTargetResolver axon = AnnotationCommandTargetResolver.builder().build();
    private final ClassValue<Target> targets = new ClassValue<>() {
        @Override
        protected Target computeValue(Class<?> commandType) {
            return new Target(annotated(commandType, TargetAggregateIdentifier.class), annotated(commandType, TargetAggregateVersion.class));
        }
    };

    @Override
    public VersionedAggregateIdentifier resolveTarget(CommandMessage<?> command) {
        Target target = targets.get(command.getPayloadType());
        Object payload = command.getPayload();
        try {
            Object identifier = valueOf(target.identifier(), payload);
            if (identifier != null) {
                Object version = valueOf(target.version(), payload);
                return new VersionedAggregateIdentifier(identifier, version == null ? null
                        : version instanceof Number number ? number.longValue() : Long.parseLong(version.toString()));
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Axon's resolver reads it again and says what is wrong
        }
        return axon.resolveTarget(command);
    }

    /** A command class's annotated members; {@code null} where it has none. */
    private record Target(AccessibleObject identifier, AccessibleObject version) {
    }

    private static AccessibleObject annotated(Class<?> type, Class<? extends Annotation> annotation) {
        for (Method method : ReflectionUtils.methodsOf(type)) {
            if (AnnotationUtils.isAnnotationPresent(method, annotation)) {
                return ReflectionUtils.ensureAccessible(method);
            }
        }
        for (Field field : ReflectionUtils.fieldsOf(type)) {
            if (AnnotationUtils.isAnnotationPresent(field, annotation)) {
                return field;
            }
        }
        return null;
    }

    private static Object valueOf(AccessibleObject member, Object payload) throws ReflectiveOperationException {
        if (member instanceof Method method) {
            return method.invoke(payload);
        }
        return member instanceof Field field ? ReflectionUtils.getFieldValue(field, payload) : null;
    }
}
