use sleuth_core::count::count_with_case_files;
use sleuth_core::{Game, Problem};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let game = Game::from_json(&std::fs::read_to_string(&a[1]).unwrap()).unwrap();
    count_with_case_files(&Problem::new(&game)).unwrap();
}
