-- db-scheduler's table, behind Axon's persistent deadline manager (DbSchedulerDeadlineManager).
CREATE TABLE scheduled_tasks (
    task_name            VARCHAR(100) NOT NULL,
    task_instance        VARCHAR(100) NOT NULL,
    task_data            LONGBLOB,
    execution_time       TIMESTAMP(6) NOT NULL,
    picked               BOOLEAN      NOT NULL,
    picked_by            VARCHAR(50),
    last_success         TIMESTAMP(6) NULL,
    last_failure         TIMESTAMP(6) NULL,
    consecutive_failures INT,
    last_heartbeat       TIMESTAMP(6) NULL,
    version              BIGINT       NOT NULL,
    priority             SMALLINT,
    PRIMARY KEY (task_name, task_instance),
    KEY ix_scheduled_tasks_execution_time (execution_time),
    KEY ix_scheduled_tasks_last_heartbeat (last_heartbeat),
    KEY ix_scheduled_tasks_priority_time (priority DESC, execution_time ASC)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
