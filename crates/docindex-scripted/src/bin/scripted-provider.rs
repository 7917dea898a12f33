//! The scripted provider as a command, for the LLM economy benchmark:
//! `scripted-provider [ADDR]` serves the fake model on ADDR (default 127.0.0.1:8089) and
//! prints its call and token counts every few seconds.

use docindex_scripted::ScriptedServer;

fn main() {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8089".to_string());
    let server = ScriptedServer::start_on(&addr);
    eprintln!("scripted provider on {}", server.base_url);
    let mut last = server.stats();
    loop {
        std::thread::sleep(std::time::Duration::from_secs(2));
        let now = server.stats();
        if now != last {
            println!(
                "calls={} prompt_tokens={} completion_tokens={}",
                now.calls, now.prompt_tokens, now.completion_tokens
            );
            last = now;
        }
    }
}
