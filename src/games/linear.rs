//! The one piece of linear algebra the games' tuners share: the Newton
//! steps of `podium tune` solve a small dense system.

/// The solution of `matrix * x = vector` by Gaussian elimination with
/// partial pivoting, if the matrix is not singular.
pub(crate) fn solve(mut matrix: Vec<Vec<f64>>, mut vector: Vec<f64>) -> Option<Vec<f64>> {
    let n = vector.len();
    for column in 0..n {
        let pivot = (column..n).max_by(|&a, &b| matrix[a][column].abs().total_cmp(&matrix[b][column].abs()))?;
        if matrix[pivot][column].abs() < 1e-300 {
            return None;
        }
        matrix.swap(column, pivot);
        vector.swap(column, pivot);
        let (upper, lower) = matrix.split_at_mut(column + 1);
        let pivot_row = &upper[column];
        for (offset, row) in lower.iter_mut().enumerate() {
            let factor = row[column] / pivot_row[column];
            for (cell, above) in row[column..].iter_mut().zip(&pivot_row[column..]) {
                *cell -= factor * above;
            }
            vector[column + 1 + offset] -= factor * vector[column];
        }
    }
    let mut solution = vec![0.0; n];
    for row in (0..n).rev() {
        let known: f64 = (row + 1..n).map(|k| matrix[row][k] * solution[k]).sum();
        solution[row] = (vector[row] - known) / matrix[row][row];
    }
    Some(solution)
}
