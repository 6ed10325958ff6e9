# Claude Code session transcripts for the tests, written as Claude Code
# writes them: one JSON object per line (jq -c makes the escapes), the
# envelope (parentUuid, isSidechain, userType, cwd, sessionId, version,
# gitBranch, type, uuid, timestamp), the assistant's Bash call as a
# tool_use content block, its output as a tool_result block in the next
# user line together with toolUseResult {stdout, stderr, interrupted,
# isImage}.
#
#   cc_session ID CWD            the session the next lines belong to
#   cc_bash TIME TOOLID COMMAND  the assistant runs a command
#   cc_output TIME TOOLID TEXT   ... and its output comes back
#   cc_run TIME TOOLID COMMAND OUTPUT   both, the output a second later
#   cc_read TIME TOOLID PATH TEXT       a Read tool call and the file's text
#   cc_user TIME TEXT            the user types
#   cc_say TIME TEXT             the assistant answers in words
#   cc_bang TIME COMMAND OUTPUT  the user runs "!COMMAND" in the session
#   cc_summary TEXT              a summary line (no session, no time)
#
# TIME is ISO 8601 in UTC with milliseconds and Z, as Claude Code writes.

cc_session() {
	CC_SID=$1
	CC_CWD=$2
	CC_N=0
}

# One message line: jq's program $1 over the envelope every line carries,
# first(), the fields before the message, and last(t), the uuid and time
# after it; $s and $cwd are the session's, $u a fresh uuid, and the
# named arguments that follow ("name value" pairs) are jq's --arg.
cc_line() {
	local prog=$1
	shift
	CC_N=$((CC_N + 1))
	set -- --arg s "$CC_SID" --arg cwd "$CC_CWD" \
		--arg u "$(printf '%08x-0000-4000-8000-%012x' "$CC_N" "$CC_N")" \
		"$@"
	jq -nc "$@" 'def first: { parentUuid: null, isSidechain: false,
		userType: "external", cwd: $cwd, sessionId: $s,
		version: "2.0.49", gitBranch: "main" };
	def last(t): { uuid: $u, timestamp: t };
	'"$prog"
}

cc_bash() {
	cc_line 'first + { message: { model: "claude-sonnet-4-5-20250929",
		id: "msg_01AbCdEfGhIjKlMnOpQrStUv", type: "message",
		role: "assistant",
		content: [ { type: "tool_use", id: $id, name: "Bash",
			input: { command: $cmd,
				description: "Run the command" } } ],
		stop_reason: "tool_use", stop_sequence: null,
		usage: { input_tokens: 4, cache_creation_input_tokens: 0,
			cache_read_input_tokens: 20518, output_tokens: 88,
			service_tier: "standard" } },
		requestId: "req_011CUq2w3E4r5T6y7U8i9O0p", type: "assistant" }
		+ last($t)' --arg t "$1" --arg id "$2" --arg cmd "$3"
}

cc_output() {
	cc_line 'first + { type: "user", message: { role: "user",
		content: [ { tool_use_id: $id, type: "tool_result",
			content: $out, is_error: false } ] } } + last($t)
		+ { toolUseResult: { stdout: $out, stderr: "",
			interrupted: false, isImage: false } }' \
		--arg t "$1" --arg id "$2" --arg out "$3"
}

# The time a second after TIME (TIME as cc writes it).
cc_later() {
	date -u -d "@$(($(date -u -d "$1" +%s) + 1))" +%Y-%m-%dT%H:%M:%S.000Z
}

cc_run() {
	cc_bash "$1" "$2" "$3"
	cc_output "$(cc_later "$1")" "$2" "$4"
}

cc_read() {
	cc_line 'first + { message: { role: "assistant", type: "message",
		content: [ { type: "tool_use", id: $id, name: "Read",
			input: { file_path: $path } } ] }, type: "assistant" }
		+ last($t)' --arg t "$1" --arg id "$2" --arg path "$3"
	cc_line 'first + { type: "user", message: { role: "user",
		content: [ { tool_use_id: $id, type: "tool_result",
			content: $text } ] } } + last($t)
		+ { toolUseResult: { type: "text", file: { filePath: $path,
			content: $text, numLines: 1, startLine: 1,
			totalLines: 1 } } }' \
		--arg t "$1" --arg id "$2" --arg path "$3" --arg text "$4"
}

cc_user() {
	cc_line 'first + { type: "user", message: { role: "user",
		content: $text } } + last($t)' --arg t "$1" --arg text "$2"
}

cc_say() {
	cc_line 'first + { message: { role: "assistant", type: "message",
		content: [ { type: "text", text: $text } ] },
		type: "assistant" } + last($t)' --arg t "$1" --arg text "$2"
}

cc_bang() {
	cc_user "$1" "<bash-input>$2</bash-input>"
	cc_user "$(cc_later "$1")" \
		"<bash-stdout>$3</bash-stdout><bash-stderr></bash-stderr>"
}

cc_summary() {
	jq -nc --arg text "$1" '{ type: "summary", summary: $text,
		leafUuid: "00000001-0000-4000-8000-000000000001" }'
}
