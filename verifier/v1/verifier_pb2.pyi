from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Verdict(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VERDICT_UNSPECIFIED: _ClassVar[Verdict]
    VERDICT_CORRECT: _ClassVar[Verdict]
    VERDICT_INCORRECT: _ClassVar[Verdict]
    VERDICT_NO_ANSWER: _ClassVar[Verdict]
    VERDICT_INVALID_GOLD: _ClassVar[Verdict]
    VERDICT_TIMEOUT: _ClassVar[Verdict]
    VERDICT_ERROR: _ClassVar[Verdict]
    VERDICT_ACCEPTED: _ClassVar[Verdict]
    VERDICT_WRONG_ANSWER: _ClassVar[Verdict]
    VERDICT_COMPILE_ERROR: _ClassVar[Verdict]
    VERDICT_RUNTIME_ERROR: _ClassVar[Verdict]
    VERDICT_TIME_LIMIT: _ClassVar[Verdict]
    VERDICT_MEMORY_LIMIT: _ClassVar[Verdict]
    VERDICT_OUTPUT_LIMIT: _ClassVar[Verdict]
    VERDICT_NO_CODE: _ClassVar[Verdict]
    VERDICT_INFRA_ERROR: _ClassVar[Verdict]
VERDICT_UNSPECIFIED: Verdict
VERDICT_CORRECT: Verdict
VERDICT_INCORRECT: Verdict
VERDICT_NO_ANSWER: Verdict
VERDICT_INVALID_GOLD: Verdict
VERDICT_TIMEOUT: Verdict
VERDICT_ERROR: Verdict
VERDICT_ACCEPTED: Verdict
VERDICT_WRONG_ANSWER: Verdict
VERDICT_COMPILE_ERROR: Verdict
VERDICT_RUNTIME_ERROR: Verdict
VERDICT_TIME_LIMIT: Verdict
VERDICT_MEMORY_LIMIT: Verdict
VERDICT_OUTPUT_LIMIT: Verdict
VERDICT_NO_CODE: Verdict
VERDICT_INFRA_ERROR: Verdict

class GradeRequest(_message.Message):
    __slots__ = ("request_id", "tasks", "test_sets")
    class TestSetsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: TestSet
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[TestSet, _Mapping]] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    TASKS_FIELD_NUMBER: _ClassVar[int]
    TEST_SETS_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    tasks: _containers.RepeatedCompositeFieldContainer[Task]
    test_sets: _containers.MessageMap[str, TestSet]
    def __init__(self, request_id: _Optional[str] = ..., tasks: _Optional[_Iterable[_Union[Task, _Mapping]]] = ..., test_sets: _Optional[_Mapping[str, TestSet]] = ...) -> None: ...

class TestSet(_message.Message):
    __slots__ = ("tests",)
    TESTS_FIELD_NUMBER: _ClassVar[int]
    tests: _containers.RepeatedCompositeFieldContainer[CodeTest]
    def __init__(self, tests: _Optional[_Iterable[_Union[CodeTest, _Mapping]]] = ...) -> None: ...

class Task(_message.Message):
    __slots__ = ("id", "math", "code", "repo", "timeout_s")
    ID_FIELD_NUMBER: _ClassVar[int]
    MATH_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    REPO_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_S_FIELD_NUMBER: _ClassVar[int]
    id: str
    math: MathTask
    code: CodeTask
    repo: RepoTask
    timeout_s: float
    def __init__(self, id: _Optional[str] = ..., math: _Optional[_Union[MathTask, _Mapping]] = ..., code: _Optional[_Union[CodeTask, _Mapping]] = ..., repo: _Optional[_Union[RepoTask, _Mapping]] = ..., timeout_s: _Optional[float] = ...) -> None: ...

class MathTask(_message.Message):
    __slots__ = ("completion", "gold", "profile", "choices", "problem")
    COMPLETION_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    PROFILE_FIELD_NUMBER: _ClassVar[int]
    CHOICES_FIELD_NUMBER: _ClassVar[int]
    PROBLEM_FIELD_NUMBER: _ClassVar[int]
    completion: str
    gold: str
    profile: str
    choices: _containers.RepeatedScalarFieldContainer[str]
    problem: str
    def __init__(self, completion: _Optional[str] = ..., gold: _Optional[str] = ..., profile: _Optional[str] = ..., choices: _Optional[_Iterable[str]] = ..., problem: _Optional[str] = ...) -> None: ...

class CodeTest(_message.Message):
    __slots__ = ("stdin", "expected_stdout")
    STDIN_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_STDOUT_FIELD_NUMBER: _ClassVar[int]
    stdin: str
    expected_stdout: str
    def __init__(self, stdin: _Optional[str] = ..., expected_stdout: _Optional[str] = ...) -> None: ...

class CallTest(_message.Message):
    __slots__ = ("args_json", "expected_json", "kwargs_json")
    ARGS_JSON_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_JSON_FIELD_NUMBER: _ClassVar[int]
    KWARGS_JSON_FIELD_NUMBER: _ClassVar[int]
    args_json: str
    expected_json: str
    kwargs_json: str
    def __init__(self, args_json: _Optional[str] = ..., expected_json: _Optional[str] = ..., kwargs_json: _Optional[str] = ...) -> None: ...

class CodeTask(_message.Message):
    __slots__ = ("language", "completion", "tests", "test_code", "checker", "compare", "float_abs_tol", "float_rel_tol", "scoring", "stop_on_first_failure", "time_limit_s", "memory_limit_mb", "checker_language", "entry_point", "call_tests", "test_framework", "judge", "files", "input_file", "output_file", "test_set")
    class FilesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_FIELD_NUMBER: _ClassVar[int]
    TESTS_FIELD_NUMBER: _ClassVar[int]
    TEST_CODE_FIELD_NUMBER: _ClassVar[int]
    CHECKER_FIELD_NUMBER: _ClassVar[int]
    COMPARE_FIELD_NUMBER: _ClassVar[int]
    FLOAT_ABS_TOL_FIELD_NUMBER: _ClassVar[int]
    FLOAT_REL_TOL_FIELD_NUMBER: _ClassVar[int]
    SCORING_FIELD_NUMBER: _ClassVar[int]
    STOP_ON_FIRST_FAILURE_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    MEMORY_LIMIT_MB_FIELD_NUMBER: _ClassVar[int]
    CHECKER_LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    ENTRY_POINT_FIELD_NUMBER: _ClassVar[int]
    CALL_TESTS_FIELD_NUMBER: _ClassVar[int]
    TEST_FRAMEWORK_FIELD_NUMBER: _ClassVar[int]
    JUDGE_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    INPUT_FILE_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_FILE_FIELD_NUMBER: _ClassVar[int]
    TEST_SET_FIELD_NUMBER: _ClassVar[int]
    language: str
    completion: str
    tests: _containers.RepeatedCompositeFieldContainer[CodeTest]
    test_code: str
    checker: str
    compare: str
    float_abs_tol: float
    float_rel_tol: float
    scoring: str
    stop_on_first_failure: bool
    time_limit_s: float
    memory_limit_mb: int
    checker_language: str
    entry_point: str
    call_tests: _containers.RepeatedCompositeFieldContainer[CallTest]
    test_framework: str
    judge: str
    files: _containers.ScalarMap[str, str]
    input_file: str
    output_file: str
    test_set: str
    def __init__(self, language: _Optional[str] = ..., completion: _Optional[str] = ..., tests: _Optional[_Iterable[_Union[CodeTest, _Mapping]]] = ..., test_code: _Optional[str] = ..., checker: _Optional[str] = ..., compare: _Optional[str] = ..., float_abs_tol: _Optional[float] = ..., float_rel_tol: _Optional[float] = ..., scoring: _Optional[str] = ..., stop_on_first_failure: _Optional[bool] = ..., time_limit_s: _Optional[float] = ..., memory_limit_mb: _Optional[int] = ..., checker_language: _Optional[str] = ..., entry_point: _Optional[str] = ..., call_tests: _Optional[_Iterable[_Union[CallTest, _Mapping]]] = ..., test_framework: _Optional[str] = ..., judge: _Optional[str] = ..., files: _Optional[_Mapping[str, str]] = ..., input_file: _Optional[str] = ..., output_file: _Optional[str] = ..., test_set: _Optional[str] = ...) -> None: ...

class RepoTask(_message.Message):
    __slots__ = ("environment", "completion", "test_patch", "test_cmd", "fail_to_pass", "pass_to_pass", "report", "time_limit_s", "memory_limit_mb", "editable")
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    COMPLETION_FIELD_NUMBER: _ClassVar[int]
    TEST_PATCH_FIELD_NUMBER: _ClassVar[int]
    TEST_CMD_FIELD_NUMBER: _ClassVar[int]
    FAIL_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    PASS_TO_PASS_FIELD_NUMBER: _ClassVar[int]
    REPORT_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    MEMORY_LIMIT_MB_FIELD_NUMBER: _ClassVar[int]
    EDITABLE_FIELD_NUMBER: _ClassVar[int]
    environment: str
    completion: str
    test_patch: str
    test_cmd: str
    fail_to_pass: _containers.RepeatedScalarFieldContainer[str]
    pass_to_pass: _containers.RepeatedScalarFieldContainer[str]
    report: str
    time_limit_s: float
    memory_limit_mb: int
    editable: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, environment: _Optional[str] = ..., completion: _Optional[str] = ..., test_patch: _Optional[str] = ..., test_cmd: _Optional[str] = ..., fail_to_pass: _Optional[_Iterable[str]] = ..., pass_to_pass: _Optional[_Iterable[str]] = ..., report: _Optional[str] = ..., time_limit_s: _Optional[float] = ..., memory_limit_mb: _Optional[int] = ..., editable: _Optional[_Iterable[str]] = ...) -> None: ...

class TestResult(_message.Message):
    __slots__ = ("verdict", "time_s", "detail", "exit_code", "name")
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    TIME_S_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    verdict: Verdict
    time_s: float
    detail: str
    exit_code: int
    name: str
    def __init__(self, verdict: _Optional[_Union[Verdict, str]] = ..., time_s: _Optional[float] = ..., detail: _Optional[str] = ..., exit_code: _Optional[int] = ..., name: _Optional[str] = ...) -> None: ...

class GradeResult(_message.Message):
    __slots__ = ("id", "verdict", "score", "detail", "extracted", "extracted_from", "queue_s", "exec_s", "tests", "retryable")
    ID_FIELD_NUMBER: _ClassVar[int]
    VERDICT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    EXTRACTED_FIELD_NUMBER: _ClassVar[int]
    EXTRACTED_FROM_FIELD_NUMBER: _ClassVar[int]
    QUEUE_S_FIELD_NUMBER: _ClassVar[int]
    EXEC_S_FIELD_NUMBER: _ClassVar[int]
    TESTS_FIELD_NUMBER: _ClassVar[int]
    RETRYABLE_FIELD_NUMBER: _ClassVar[int]
    id: str
    verdict: Verdict
    score: float
    detail: str
    extracted: str
    extracted_from: str
    queue_s: float
    exec_s: float
    tests: _containers.RepeatedCompositeFieldContainer[TestResult]
    retryable: bool
    def __init__(self, id: _Optional[str] = ..., verdict: _Optional[_Union[Verdict, str]] = ..., score: _Optional[float] = ..., detail: _Optional[str] = ..., extracted: _Optional[str] = ..., extracted_from: _Optional[str] = ..., queue_s: _Optional[float] = ..., exec_s: _Optional[float] = ..., tests: _Optional[_Iterable[_Union[TestResult, _Mapping]]] = ..., retryable: _Optional[bool] = ...) -> None: ...

class GradeResponse(_message.Message):
    __slots__ = ("results",)
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[GradeResult]
    def __init__(self, results: _Optional[_Iterable[_Union[GradeResult, _Mapping]]] = ...) -> None: ...

class GetServerInfoRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Limits(_message.Message):
    __slots__ = ("max_tasks_per_call", "max_field_bytes", "max_request_bytes", "default_math_timeout_s", "max_math_timeout_s", "max_code_timeout_s", "max_tests_per_task", "max_queued_items", "max_choices", "max_test_set_bytes", "max_test_field_bytes")
    MAX_TASKS_PER_CALL_FIELD_NUMBER: _ClassVar[int]
    MAX_FIELD_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_REQUEST_BYTES_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_MATH_TIMEOUT_S_FIELD_NUMBER: _ClassVar[int]
    MAX_MATH_TIMEOUT_S_FIELD_NUMBER: _ClassVar[int]
    MAX_CODE_TIMEOUT_S_FIELD_NUMBER: _ClassVar[int]
    MAX_TESTS_PER_TASK_FIELD_NUMBER: _ClassVar[int]
    MAX_QUEUED_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MAX_CHOICES_FIELD_NUMBER: _ClassVar[int]
    MAX_TEST_SET_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_TEST_FIELD_BYTES_FIELD_NUMBER: _ClassVar[int]
    max_tasks_per_call: int
    max_field_bytes: int
    max_request_bytes: int
    default_math_timeout_s: float
    max_math_timeout_s: float
    max_code_timeout_s: float
    max_tests_per_task: int
    max_queued_items: int
    max_choices: int
    max_test_set_bytes: int
    max_test_field_bytes: int
    def __init__(self, max_tasks_per_call: _Optional[int] = ..., max_field_bytes: _Optional[int] = ..., max_request_bytes: _Optional[int] = ..., default_math_timeout_s: _Optional[float] = ..., max_math_timeout_s: _Optional[float] = ..., max_code_timeout_s: _Optional[float] = ..., max_tests_per_task: _Optional[int] = ..., max_queued_items: _Optional[int] = ..., max_choices: _Optional[int] = ..., max_test_set_bytes: _Optional[int] = ..., max_test_field_bytes: _Optional[int] = ...) -> None: ...

class LanguageInfo(_message.Message):
    __slots__ = ("name", "default_time_limit_s", "max_time_limit_s", "default_memory_limit_mb", "max_memory_limit_mb", "image")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    MAX_TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_MEMORY_LIMIT_MB_FIELD_NUMBER: _ClassVar[int]
    MAX_MEMORY_LIMIT_MB_FIELD_NUMBER: _ClassVar[int]
    IMAGE_FIELD_NUMBER: _ClassVar[int]
    name: str
    default_time_limit_s: float
    max_time_limit_s: float
    default_memory_limit_mb: int
    max_memory_limit_mb: int
    image: str
    def __init__(self, name: _Optional[str] = ..., default_time_limit_s: _Optional[float] = ..., max_time_limit_s: _Optional[float] = ..., default_memory_limit_mb: _Optional[int] = ..., max_memory_limit_mb: _Optional[int] = ..., image: _Optional[str] = ...) -> None: ...

class ServerInfo(_message.Message):
    __slots__ = ("version", "math_verify_version", "sympy_version", "limits", "kinds", "languages", "code_available")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    MATH_VERIFY_VERSION_FIELD_NUMBER: _ClassVar[int]
    SYMPY_VERSION_FIELD_NUMBER: _ClassVar[int]
    LIMITS_FIELD_NUMBER: _ClassVar[int]
    KINDS_FIELD_NUMBER: _ClassVar[int]
    LANGUAGES_FIELD_NUMBER: _ClassVar[int]
    CODE_AVAILABLE_FIELD_NUMBER: _ClassVar[int]
    version: str
    math_verify_version: str
    sympy_version: str
    limits: Limits
    kinds: _containers.RepeatedScalarFieldContainer[str]
    languages: _containers.RepeatedCompositeFieldContainer[LanguageInfo]
    code_available: bool
    def __init__(self, version: _Optional[str] = ..., math_verify_version: _Optional[str] = ..., sympy_version: _Optional[str] = ..., limits: _Optional[_Union[Limits, _Mapping]] = ..., kinds: _Optional[_Iterable[str]] = ..., languages: _Optional[_Iterable[_Union[LanguageInfo, _Mapping]]] = ..., code_available: _Optional[bool] = ...) -> None: ...

class ExecuteRequest(_message.Message):
    __slots__ = ("request_id", "language", "code", "stdin", "files", "time_limit_s", "memory_limit_mb", "max_output_bytes")
    class FilesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    STDIN_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    MEMORY_LIMIT_MB_FIELD_NUMBER: _ClassVar[int]
    MAX_OUTPUT_BYTES_FIELD_NUMBER: _ClassVar[int]
    request_id: str
    language: str
    code: str
    stdin: str
    files: _containers.ScalarMap[str, str]
    time_limit_s: float
    memory_limit_mb: int
    max_output_bytes: int
    def __init__(self, request_id: _Optional[str] = ..., language: _Optional[str] = ..., code: _Optional[str] = ..., stdin: _Optional[str] = ..., files: _Optional[_Mapping[str, str]] = ..., time_limit_s: _Optional[float] = ..., memory_limit_mb: _Optional[int] = ..., max_output_bytes: _Optional[int] = ...) -> None: ...

class ExecuteResponse(_message.Message):
    __slots__ = ("status", "stdout", "stderr", "stdout_truncated", "stderr_truncated", "exit_code", "signal", "cpu_s", "wall_s", "peak_memory_kb", "detail", "queue_s", "exec_s")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STDOUT_FIELD_NUMBER: _ClassVar[int]
    STDERR_FIELD_NUMBER: _ClassVar[int]
    STDOUT_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    STDERR_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    SIGNAL_FIELD_NUMBER: _ClassVar[int]
    CPU_S_FIELD_NUMBER: _ClassVar[int]
    WALL_S_FIELD_NUMBER: _ClassVar[int]
    PEAK_MEMORY_KB_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    QUEUE_S_FIELD_NUMBER: _ClassVar[int]
    EXEC_S_FIELD_NUMBER: _ClassVar[int]
    status: str
    stdout: str
    stderr: str
    stdout_truncated: bool
    stderr_truncated: bool
    exit_code: int
    signal: int
    cpu_s: float
    wall_s: float
    peak_memory_kb: int
    detail: str
    queue_s: float
    exec_s: float
    def __init__(self, status: _Optional[str] = ..., stdout: _Optional[str] = ..., stderr: _Optional[str] = ..., stdout_truncated: _Optional[bool] = ..., stderr_truncated: _Optional[bool] = ..., exit_code: _Optional[int] = ..., signal: _Optional[int] = ..., cpu_s: _Optional[float] = ..., wall_s: _Optional[float] = ..., peak_memory_kb: _Optional[int] = ..., detail: _Optional[str] = ..., queue_s: _Optional[float] = ..., exec_s: _Optional[float] = ...) -> None: ...

class CreateSessionRequest(_message.Message):
    __slots__ = ("language", "files", "time_limit_s", "memory_limit_mb", "max_output_bytes", "idle_ttl_s", "replay", "environment", "snapshot")
    class FilesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    FILES_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    MEMORY_LIMIT_MB_FIELD_NUMBER: _ClassVar[int]
    MAX_OUTPUT_BYTES_FIELD_NUMBER: _ClassVar[int]
    IDLE_TTL_S_FIELD_NUMBER: _ClassVar[int]
    REPLAY_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    language: str
    files: _containers.ScalarMap[str, str]
    time_limit_s: float
    memory_limit_mb: int
    max_output_bytes: int
    idle_ttl_s: float
    replay: bool
    environment: str
    snapshot: str
    def __init__(self, language: _Optional[str] = ..., files: _Optional[_Mapping[str, str]] = ..., time_limit_s: _Optional[float] = ..., memory_limit_mb: _Optional[int] = ..., max_output_bytes: _Optional[int] = ..., idle_ttl_s: _Optional[float] = ..., replay: _Optional[bool] = ..., environment: _Optional[str] = ..., snapshot: _Optional[str] = ...) -> None: ...

class CreateSessionResponse(_message.Message):
    __slots__ = ("session_id", "time_limit_s", "memory_limit_mb", "idle_ttl_s", "replica")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    MEMORY_LIMIT_MB_FIELD_NUMBER: _ClassVar[int]
    IDLE_TTL_S_FIELD_NUMBER: _ClassVar[int]
    REPLICA_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    time_limit_s: float
    memory_limit_mb: int
    idle_ttl_s: float
    replica: str
    def __init__(self, session_id: _Optional[str] = ..., time_limit_s: _Optional[float] = ..., memory_limit_mb: _Optional[int] = ..., idle_ttl_s: _Optional[float] = ..., replica: _Optional[str] = ...) -> None: ...

class RunCellRequest(_message.Message):
    __slots__ = ("session_id", "code")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    code: str
    def __init__(self, session_id: _Optional[str] = ..., code: _Optional[str] = ...) -> None: ...

class CellError(_message.Message):
    __slots__ = ("ename", "evalue", "traceback")
    ENAME_FIELD_NUMBER: _ClassVar[int]
    EVALUE_FIELD_NUMBER: _ClassVar[int]
    TRACEBACK_FIELD_NUMBER: _ClassVar[int]
    ename: str
    evalue: str
    traceback: str
    def __init__(self, ename: _Optional[str] = ..., evalue: _Optional[str] = ..., traceback: _Optional[str] = ...) -> None: ...

class RunCellResponse(_message.Message):
    __slots__ = ("status", "stdout", "stderr", "stdout_truncated", "stderr_truncated", "value", "value_truncated", "error", "session_lost", "restored", "detail", "cpu_s", "wall_s")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    STDOUT_FIELD_NUMBER: _ClassVar[int]
    STDERR_FIELD_NUMBER: _ClassVar[int]
    STDOUT_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    STDERR_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    VALUE_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    SESSION_LOST_FIELD_NUMBER: _ClassVar[int]
    RESTORED_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    CPU_S_FIELD_NUMBER: _ClassVar[int]
    WALL_S_FIELD_NUMBER: _ClassVar[int]
    status: str
    stdout: str
    stderr: str
    stdout_truncated: bool
    stderr_truncated: bool
    value: str
    value_truncated: bool
    error: CellError
    session_lost: bool
    restored: bool
    detail: str
    cpu_s: float
    wall_s: float
    def __init__(self, status: _Optional[str] = ..., stdout: _Optional[str] = ..., stderr: _Optional[str] = ..., stdout_truncated: _Optional[bool] = ..., stderr_truncated: _Optional[bool] = ..., value: _Optional[str] = ..., value_truncated: _Optional[bool] = ..., error: _Optional[_Union[CellError, _Mapping]] = ..., session_lost: _Optional[bool] = ..., restored: _Optional[bool] = ..., detail: _Optional[str] = ..., cpu_s: _Optional[float] = ..., wall_s: _Optional[float] = ...) -> None: ...

class ReadSessionFileRequest(_message.Message):
    __slots__ = ("session_id", "path", "max_bytes")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    MAX_BYTES_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    path: str
    max_bytes: int
    def __init__(self, session_id: _Optional[str] = ..., path: _Optional[str] = ..., max_bytes: _Optional[int] = ...) -> None: ...

class ReadSessionFileResponse(_message.Message):
    __slots__ = ("data", "truncated")
    DATA_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    data: bytes
    truncated: bool
    def __init__(self, data: _Optional[bytes] = ..., truncated: _Optional[bool] = ...) -> None: ...

class CloseSessionRequest(_message.Message):
    __slots__ = ("session_id",)
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    def __init__(self, session_id: _Optional[str] = ...) -> None: ...

class CloseSessionResponse(_message.Message):
    __slots__ = ("closed",)
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    closed: bool
    def __init__(self, closed: _Optional[bool] = ...) -> None: ...

class RunShellRequest(_message.Message):
    __slots__ = ("session_id", "command", "time_limit_s", "max_output_bytes")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_S_FIELD_NUMBER: _ClassVar[int]
    MAX_OUTPUT_BYTES_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    command: str
    time_limit_s: float
    max_output_bytes: int
    def __init__(self, session_id: _Optional[str] = ..., command: _Optional[str] = ..., time_limit_s: _Optional[float] = ..., max_output_bytes: _Optional[int] = ...) -> None: ...

class RunShellResponse(_message.Message):
    __slots__ = ("status", "exit_code", "stdout", "stderr", "stdout_truncated", "stderr_truncated", "session_lost", "detail", "cpu_s", "wall_s")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    EXIT_CODE_FIELD_NUMBER: _ClassVar[int]
    STDOUT_FIELD_NUMBER: _ClassVar[int]
    STDERR_FIELD_NUMBER: _ClassVar[int]
    STDOUT_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    STDERR_TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    SESSION_LOST_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    CPU_S_FIELD_NUMBER: _ClassVar[int]
    WALL_S_FIELD_NUMBER: _ClassVar[int]
    status: str
    exit_code: int
    stdout: str
    stderr: str
    stdout_truncated: bool
    stderr_truncated: bool
    session_lost: bool
    detail: str
    cpu_s: float
    wall_s: float
    def __init__(self, status: _Optional[str] = ..., exit_code: _Optional[int] = ..., stdout: _Optional[str] = ..., stderr: _Optional[str] = ..., stdout_truncated: _Optional[bool] = ..., stderr_truncated: _Optional[bool] = ..., session_lost: _Optional[bool] = ..., detail: _Optional[str] = ..., cpu_s: _Optional[float] = ..., wall_s: _Optional[float] = ...) -> None: ...

class WriteSessionFileRequest(_message.Message):
    __slots__ = ("session_id", "path", "data")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    path: str
    data: bytes
    def __init__(self, session_id: _Optional[str] = ..., path: _Optional[str] = ..., data: _Optional[bytes] = ...) -> None: ...

class WriteSessionFileResponse(_message.Message):
    __slots__ = ("size",)
    SIZE_FIELD_NUMBER: _ClassVar[int]
    size: int
    def __init__(self, size: _Optional[int] = ...) -> None: ...

class ListSessionDirRequest(_message.Message):
    __slots__ = ("session_id", "path", "max_entries")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    MAX_ENTRIES_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    path: str
    max_entries: int
    def __init__(self, session_id: _Optional[str] = ..., path: _Optional[str] = ..., max_entries: _Optional[int] = ...) -> None: ...

class SessionDirEntry(_message.Message):
    __slots__ = ("name", "kind", "size")
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    name: str
    kind: str
    size: int
    def __init__(self, name: _Optional[str] = ..., kind: _Optional[str] = ..., size: _Optional[int] = ...) -> None: ...

class ListSessionDirResponse(_message.Message):
    __slots__ = ("entries", "truncated")
    ENTRIES_FIELD_NUMBER: _ClassVar[int]
    TRUNCATED_FIELD_NUMBER: _ClassVar[int]
    entries: _containers.RepeatedCompositeFieldContainer[SessionDirEntry]
    truncated: bool
    def __init__(self, entries: _Optional[_Iterable[_Union[SessionDirEntry, _Mapping]]] = ..., truncated: _Optional[bool] = ...) -> None: ...

class GradeSessionRequest(_message.Message):
    __slots__ = ("session_id", "task", "id")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TASK_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    task: RepoTask
    id: str
    def __init__(self, session_id: _Optional[str] = ..., task: _Optional[_Union[RepoTask, _Mapping]] = ..., id: _Optional[str] = ...) -> None: ...

class GradeSessionResponse(_message.Message):
    __slots__ = ("result", "patch")
    RESULT_FIELD_NUMBER: _ClassVar[int]
    PATCH_FIELD_NUMBER: _ClassVar[int]
    result: GradeResult
    patch: str
    def __init__(self, result: _Optional[_Union[GradeResult, _Mapping]] = ..., patch: _Optional[str] = ...) -> None: ...

class ForkSessionRequest(_message.Message):
    __slots__ = ("session_id", "n")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    N_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    n: int
    def __init__(self, session_id: _Optional[str] = ..., n: _Optional[int] = ...) -> None: ...

class ForkSessionResponse(_message.Message):
    __slots__ = ("sessions",)
    SESSIONS_FIELD_NUMBER: _ClassVar[int]
    sessions: _containers.RepeatedCompositeFieldContainer[CreateSessionResponse]
    def __init__(self, sessions: _Optional[_Iterable[_Union[CreateSessionResponse, _Mapping]]] = ...) -> None: ...

class SnapshotSessionRequest(_message.Message):
    __slots__ = ("session_id", "ttl_s")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    TTL_S_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    ttl_s: float
    def __init__(self, session_id: _Optional[str] = ..., ttl_s: _Optional[float] = ...) -> None: ...

class SnapshotSessionResponse(_message.Message):
    __slots__ = ("snapshot_id", "ttl_s", "bytes")
    SNAPSHOT_ID_FIELD_NUMBER: _ClassVar[int]
    TTL_S_FIELD_NUMBER: _ClassVar[int]
    BYTES_FIELD_NUMBER: _ClassVar[int]
    snapshot_id: str
    ttl_s: float
    bytes: int
    def __init__(self, snapshot_id: _Optional[str] = ..., ttl_s: _Optional[float] = ..., bytes: _Optional[int] = ...) -> None: ...
