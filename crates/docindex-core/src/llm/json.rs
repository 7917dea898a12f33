//! JSON from model replies: find the object in fences or prose, repair what models commonly
//! get wrong, check it against the type we need, and re-ask once when it still fails.

use super::{Llm, LlmError, LlmReply, LlmRequest, Message, Role};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The first JSON object or array in `text`, repaired if needed.
pub fn extract_json(text: &str) -> Result<Value, String> {
    let body = strip_fence(text);
    let start = body
        .find(['{', '['])
        .ok_or_else(|| "the reply contains no JSON object".to_string())?;
    let candidate = match balanced_end(&body[start..]) {
        Some(end) => &body[start..start + end],
        None => &body[start..],
    };
    if let Ok(value) = serde_json::from_str(candidate) {
        return Ok(value);
    }
    let repaired = repair(candidate);
    serde_json::from_str(&repaired).map_err(|e| format!("the reply is not valid JSON ({e})"))
}

/// The inside of the first ```json fence, or the whole text when there is none.
fn strip_fence(text: &str) -> &str {
    let Some(open) = text.find("```") else {
        return text;
    };
    let after = &text[open + 3..];
    let body_start = after.find('\n').map(|i| i + 1).unwrap_or(0);
    let body = &after[body_start..];
    match body.find("```") {
        Some(close) => &body[..close],
        None => body,
    }
}

/// Byte length of the balanced object or array that starts `text`, outside strings.
fn balanced_end(text: &str) -> Option<usize> {
    let mut depth = 0i32;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Fix trailing commas, Python literals and single-quoted strings, and close what a cut
/// reply left open. Only text outside strings is touched.
pub fn repair(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut closers: Vec<char> = Vec::new();
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        if let Some(q) = quote {
            match c {
                '\\' => {
                    out.push(c);
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                }
                _ if c == q => {
                    out.push('"');
                    quote = None;
                }
                '"' => out.push_str("\\\""),
                '\n' => out.push_str("\\n"),
                _ => out.push(c),
            }
            continue;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                out.push('"');
            }
            '{' => {
                closers.push('}');
                out.push(c);
            }
            '[' => {
                closers.push(']');
                out.push(c);
            }
            '}' | ']' => {
                trim_trailing_comma(&mut out);
                closers.pop();
                out.push(c);
            }
            c if c.is_ascii_alphabetic() => {
                let mut word = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_ascii_alphanumeric() || n == '_' {
                        word.push(n);
                        chars.next();
                    } else {
                        break;
                    }
                }
                out.push_str(match word.as_str() {
                    "True" => "true",
                    "False" => "false",
                    "None" => "null",
                    other => other,
                });
            }
            _ => out.push(c),
        }
    }
    if quote.is_some() {
        out.push('"');
    }
    trim_trailing_comma(&mut out);
    while let Some(closer) = closers.pop() {
        trim_trailing_comma(&mut out);
        out.push(closer);
    }
    out
}

fn trim_trailing_comma(out: &mut String) {
    let trimmed = out.trim_end().len();
    if out[..trimmed].ends_with(',') {
        out.truncate(trimmed - 1);
    } else if out[..trimmed].ends_with(':') {
        out.truncate(trimmed);
        out.push_str("null");
    }
}

/// A parsed reply and what it cost.
#[derive(Debug, Clone)]
pub struct JsonReply<T> {
    pub value: T,
    /// Every reply received (one, or two after a corrective re-ask).
    pub replies: Vec<LlmReply>,
}

/// Ask `llm` for JSON of type `T`. A reply that does not parse or does not fit `T` gets one
/// corrective re-ask naming the problem; a second failure is [`LlmError::BadReply`].
pub fn complete_json<T: DeserializeOwned>(
    llm: &dyn Llm,
    request: &LlmRequest,
) -> Result<JsonReply<T>, LlmError> {
    let first = llm.complete(request)?;
    let problem = match parse_as::<T>(&first.text) {
        Ok(value) => {
            return Ok(JsonReply {
                value,
                replies: vec![first],
            })
        }
        Err(problem) => problem,
    };
    tracing::warn!(
        "{}: reply did not fit the expected JSON ({problem}); asking once more",
        llm.model()
    );
    let mut retry = request.clone();
    retry.messages.push(Message {
        role: Role::Assistant,
        content: first.text.clone(),
    });
    retry.messages.push(Message {
        role: Role::User,
        content: format!(
            "Your reply could not be used: {problem}. Reply again with only the JSON \
             object in the format asked for, with no prose and no code fence."
        ),
    });
    let second = llm.complete(&retry)?;
    match parse_as::<T>(&second.text) {
        Ok(value) => Ok(JsonReply {
            value,
            replies: vec![first, second],
        }),
        Err(problem) => Err(LlmError::BadReply(format!(
            "{problem} (after one corrective re-ask)"
        ))),
    }
}

fn parse_as<T: DeserializeOwned>(text: &str) -> Result<T, String> {
    let value = extract_json(text)?;
    serde_json::from_value(value).map_err(|e| format!("the JSON does not fit the format ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::ScriptedLlm;
    use serde::Deserialize;
    use serde_json::json;

    #[test]
    fn finds_json_in_fences_and_prose() {
        let fenced = "Here you go:\n```json\n{\"a\": [1, 2]}\n```\nAnything else?";
        assert_eq!(extract_json(fenced), Ok(json!({"a": [1, 2]})));
        let prose = "Sure! The answer is {\"a\": \"x}\"} and that is all.";
        assert_eq!(extract_json(prose), Ok(json!({"a": "x}"})));
    }

    #[test]
    fn repairs_trailing_commas_python_literals_quotes_and_cut_ends() {
        assert_eq!(
            extract_json("{'ok': True, 'none': None, 'list': [1, 2,],}"),
            Ok(json!({"ok": true, "none": null, "list": [1, 2]}))
        );
        assert_eq!(
            extract_json("{\"items\": [{\"id\": \"0001\"}, {\"id\": \"00"),
            Ok(json!({"items": [{"id": "0001"}, {"id": "00"}]}))
        );
        assert_eq!(
            extract_json("{\"note\": \"it's fine\", \"k\":"),
            Ok(json!({"note": "it's fine", "k": null}))
        );
        assert!(extract_json("no json here").is_err());
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Pick {
        node_id: String,
    }

    #[test]
    fn re_asks_once_with_the_problem_then_gives_up() {
        let llm = ScriptedLlm::new("test/m", |req: &LlmRequest| {
            Ok(if req.messages.len() == 1 {
                "I think it is node 0003.".to_string()
            } else {
                assert!(req.messages[2].content.contains("no JSON object"));
                "{\"node_id\": \"0003\"}".to_string()
            })
        });
        let reply: JsonReply<Pick> = complete_json(&llm, &LlmRequest::new("s", "u")).unwrap();
        assert_eq!(reply.value.node_id, "0003");
        assert_eq!(llm.call_count(), 2);

        let stubborn = ScriptedLlm::new("test/m", |_: &LlmRequest| Ok("{\"id\": 3}".into()));
        let err = complete_json::<Pick>(&stubborn, &LlmRequest::new("s", "u")).unwrap_err();
        assert!(
            matches!(err, LlmError::BadReply(ref m) if m.contains("node_id")),
            "{err}"
        );
        assert_eq!(stubborn.call_count(), 2);
    }
}
